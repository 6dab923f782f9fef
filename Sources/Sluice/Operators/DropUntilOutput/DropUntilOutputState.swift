// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// drop(untilOutputFrom:)'s subscription keeps its state here, as a machine whose events return what
// to do; the subscription itself is in DropUntilOutput.swift.

/// `drop(untilOutputFrom:)`'s state, kept under its subscription's lock: where the stream is, the
/// link to upstream and the link to the trigger. Each event changes it and returns what the
/// subscription does once it has unlocked; nothing here calls out.
@usableFromInline
struct DropUntilOutputState: PublishingState {
    @usableFromInline enum Phase {
        /// Upstream's values are dropped until the trigger fires...
        case dropping
        /// ...then they pass...
        case passing
        /// ...until the stream has ended.
        case done
    }

    @usableFromInline enum Upstream {
        /// Not subscribed yet: what downstream asked for meanwhile.
        case awaiting(pending: Subscribers.Demand)
        case active(any Subscription)
        /// Let go: the stream has ended.
        case released
    }

    /// What the subscription does with downstream's request.
    @usableFromInline enum Request {
        /// The stream has ended.
        case ignore
        /// Counted, and kept for upstream's subscription.
        case keep
        /// Counted, and passed to upstream.
        case forward(any Subscription)
    }

    @usableFromInline var phase = Phase.dropping
    @usableFromInline var upstream = Upstream.awaiting(pending: .none)
    @usableFromInline var trigger = TriggerLink.awaiting

    @inlinable init() {}

    /// Whether values pass: the value path reads it without the lock.
    @inlinable var published: Bool { if case .passing = phase { true } else { false } }

    @inlinable var isDone: Bool { if case .done = phase { true } else { false } }

    // MARK: Upstream

    /// Upstream's subscription arrived: the demand to ask it for at once (which may be none), or nil
    /// to cancel it (a second one, or after the end).
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard !isDone, case .awaiting(let pending) = upstream else { return nil }
        upstream = .active(subscription)
        return pending
    }

    /// Upstream completed: the trigger, if it has not fired, is cancelled before downstream hears
    /// the completion, as in Combine. Nil after the end.
    @inlinable
    mutating func upstreamCompleted() -> UntilOutputEnd? {
        guard !isDone else { return nil }
        phase = .done
        upstream = .released
        return UntilOutputEnd(upstream: nil, trigger: trigger.release())
    }

    // MARK: Trigger

    /// The trigger's subscription arrived: true to ask it for one element, false to cancel it.
    @inlinable
    mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
        guard case .dropping = phase else { return false }
        return trigger.subscribed(subscription)
    }

    /// The trigger fired: values pass from now on; the trigger is let go without a cancel.
    @inlinable
    mutating func triggerFired() {
        guard case .dropping = phase else { return }
        phase = .passing
        _ = trigger.release()
    }

    /// The trigger completed before it fired: nothing would ever pass, so the stream ends with its
    /// completion, upstream cancelled. Nil once it has fired, or after the end.
    @inlinable
    mutating func triggerCompleted() -> UntilOutputEnd? {
        guard case .dropping = phase else { return nil }
        _ = trigger.release()
        return UntilOutputEnd(upstream: end(), trigger: nil)
    }

    // MARK: Downstream

    @inlinable
    mutating func requested(_ demand: Subscribers.Demand) -> Request {
        guard !isDone else { return .ignore }
        switch upstream {
        case .released:
            return .ignore
        case .awaiting(let pending):
            upstream = .awaiting(pending: pending + demand)
            return .keep
        case .active(let subscription):
            return .forward(subscription)
        }
    }

    /// Downstream cancelled: both links, to cancel.
    @inlinable
    mutating func cancelled() -> UntilOutputEnd {
        let current = end()
        return UntilOutputEnd(upstream: current, trigger: trigger.release())
    }

    /// The stream ends: upstream's subscription, if it was active, for the caller to cancel.
    @inlinable
    mutating func end() -> (any Subscription)? {
        phase = .done
        defer { upstream = .released }
        return if case .active(let subscription) = upstream { subscription } else { nil }
    }
}
