// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// retry's subscription keeps its state here, as a machine whose events return what to do; the
// subscription itself is in Retry.swift.

/// `retry`'s state, kept under its subscription's lock. Each event changes it and returns what the
/// subscription does once it has unlocked; nothing here calls out.
///
/// Attempts are subscribed by one loop at a time (`isSubscribing`): a failure while that loop runs
/// (an upstream that fails inside `subscribe`) only leaves a note for it (`needsAttempt`), so the
/// stack stays flat however many attempts fail synchronously.
@usableFromInline
struct RetryState<Upstream: Publisher> {
    /// What the subscription does when an attempt completes.
    @usableFromInline enum Completed {
        case none
        /// Subscribes the next attempt (unless the loop that subscribes them runs: it does).
        case retry(startsLoop: Bool)
        /// Delivers the completion.
        case finish
    }

    /// The publisher to subscribe to again; let go once the stream is over.
    @usableFromInline var upstream: Upstream?
    /// Retries still allowed; `nil` for no limit.
    @usableFromInline var retriesLeft: Int?
    /// The current attempt's subscription, once it has arrived.
    @usableFromInline var current: (any Subscription)?
    /// Requested by downstream and not yet delivered, plus what it returned from `receive(_:)`.
    @usableFromInline var outstanding = Subscribers.Demand.none
    /// Downstream has this subscription (the first attempt's subscription arrived).
    @usableFromInline var isHandedDownstream = false
    /// The loop that subscribes the attempts is running.
    @usableFromInline var isSubscribing = false
    /// The current attempt is still to be subscribed (the first one too).
    @usableFromInline var needsAttempt = true
    /// Completed or cancelled.
    @usableFromInline var isTerminated = false

    @inlinable
    init(upstream: Upstream, retriesLeft: Int?) {
        self.upstream = upstream
        self.retriesLeft = retriesLeft
    }

    // MARK: The attempts

    /// The caller would run the loop that subscribes the attempts: true if it now does.
    @inlinable
    mutating func startSubscribing() -> Bool {
        guard !isSubscribing else { return false }
        isSubscribing = true
        return true
    }

    /// The loop's next step: the publisher to subscribe for the attempt due, or nil, which ends the loop.
    @inlinable
    mutating func nextAttempt() -> Upstream? {
        guard !isTerminated, needsAttempt, let upstream else {
            isSubscribing = false
            return nil
        }
        needsAttempt = false
        return upstream
    }

    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> SourceArrival {
        guard !isTerminated, current == nil else { return .cancel }
        current = subscription
        guard isHandedDownstream else {
            isHandedDownstream = true
            return .handDownstream
        }
        return .request(outstanding)
    }

    @inlinable
    mutating func received() -> SourceInput {
        guard !isTerminated else { return .drop }
        guard isHandedDownstream else { return .trapBeforeSubscription }
        return .counted(against: &outstanding)
    }

    /// Downstream answered `more` to a value: the current attempt, to ask for it (as Combine's,
    /// more demand goes upstream as a request of its own, not as the answer).
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard !isTerminated else { return nil }
        outstanding += more
        return current
    }

    @inlinable
    mutating func completed(_ completion: Subscribers.Completion<Upstream.Failure>) -> Completed {
        guard !isTerminated else { return .none }
        if case .failure = completion, retriesLeft != 0 {
            retriesLeft = retriesLeft.map { $0 - 1 }
            current = nil
            needsAttempt = true
            return .retry(startsLoop: !isSubscribing)
        }
        _ = finish()
        return .finish
    }

    // MARK: Downstream

    /// Downstream asked for more: the current attempt, to pass it to (before the next attempt's
    /// subscription arrives, it is asked for all of it then).
    @inlinable
    mutating func requested(_ demand: Subscribers.Demand) -> (any Subscription)? {
        guard !isTerminated else { return nil }
        outstanding += demand
        return current
    }

    /// Downstream cancelled: the current attempt, to cancel, and whether the stream was live.
    @inlinable
    mutating func cancelled() -> (live: Bool, current: (any Subscription)?) {
        guard !isTerminated else { return (false, nil) }
        return (true, finish())
    }

    /// Ends the stream and lets go of what it held; returns the subscription to cancel, if any.
    @inlinable
    mutating func finish() -> (any Subscription)? {
        defer {
            isTerminated = true
            upstream = nil
            current = nil
        }
        return current
    }
}
