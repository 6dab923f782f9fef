// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of
    /// times you specify.
    ///
    /// `retry(n)` makes at most `n + 1` attempts; each new attempt is asked for the demand
    /// downstream still has outstanding, and the last attempt's failure is passed on. A negative
    /// count retries without limit.
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    @frozen
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` (or a negative count) retries without limit.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream publisher.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let limit = retries.flatMap { $0 < 0 ? nil : $0 }
            RetrySubscription(upstream: upstream, retries: limit, downstream: subscriber).subscribeAttempts()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

/// The subscription of `retry`. Downstream gets it when the first attempt's subscription arrives
/// and keeps it across attempts. As in Combine, it is also every attempt's subscriber: an attempt
/// ends with its completion, and what comes after is the next attempt's.
///
/// One lock over one state, never held while calling out. Attempts are subscribed by one loop,
/// `subscribeAttempts`: a failure while that loop runs (an upstream that fails inside `subscribe`)
/// only leaves a note for it, so the stack stays flat however many attempts fail synchronously.
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription, Subscriber, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
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
        /// `subscribeAttempts` is running; a failure only sets `needsAttempt` for it.
        @usableFromInline var isSubscribing = false
        /// The current attempt is still to be subscribed (the first one too).
        @usableFromInline var needsAttempt = true
        /// Completed or cancelled.
        @usableFromInline var isDone = false

        @inlinable
        init(upstream: Upstream, retriesLeft: Int?) {
            self.upstream = upstream
            self.retriesLeft = retriesLeft
        }

        /// Ends the stream and lets go of what it held; returns the subscription to cancel, if any.
        @inlinable
        mutating func finish() -> (any Subscription)? {
            defer {
                isDone = true
                upstream = nil
                current = nil
            }
            return current
        }
    }

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init(upstream: Upstream, retries: Int?, downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: RetrySubscription.self).downstream.release() }
        state = State(upstream: upstream, retriesLeft: retries)
    }

    @usableFromInline var description: String { "Retry" }

    /// Subscribes upstream once per attempt that needs it, until none does.
    @inlinable
    func subscribeAttempts() {
        lock.lock()
        guard !state.isSubscribing else {
            lock.unlock()
            return
        }
        state.isSubscribing = true
        while true {
            guard !state.isDone, state.needsAttempt, let upstream = state.upstream else {
                state.isSubscribing = false
                lock.unlock()
                return
            }
            state.needsAttempt = false
            lock.unlock()
            upstream.subscribe(self)
            lock.lock()
        }
    }

    // MARK: From the attempts

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !state.isDone, state.current == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.current = subscription
        let isFirst = !state.isHandedDownstream
        state.isHandedDownstream = true
        let demand = state.outstanding
        lock.unlock()
        if isFirst {
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        } else if demand != .none {
            subscription.request(demand)
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        lock.lock()
        guard !state.isDone else {
            lock.unlock()
            return .none
        }
        // As Combine's: a value before downstream has its subscription traps; a later attempt's
        // value that comes before that attempt's subscription is delivered.
        guard state.isHandedDownstream else {
            lock.unlock()
            _trap("API violation: Retry received a value before its subscription")
        }
        guard state.outstanding > 0 else {
            lock.unlock()
            _trap("API violation: Retry received a value while downstream had no outstanding demand")
        }
        let isUnlimited = state.outstanding == .unlimited
        if !isUnlimited { state.outstanding -= 1 }
        lock.unlock()
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        guard more != .none && !isUnlimited else { return .none }
        // As Combine's, more demand goes upstream as a request of its own, not as the answer.
        lock.lock()
        guard !state.isDone else {
            lock.unlock()
            return .none
        }
        state.outstanding += more
        let current = state.current
        lock.unlock()
        current?.request(more)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        guard !state.isDone else {
            lock.unlock()
            return
        }
        if case .failure = completion, state.retriesLeft != 0 {
            state.retriesLeft = state.retriesLeft.map { $0 - 1 }
            state.current = nil
            state.needsAttempt = true
            let isLoopRunning = state.isSubscribing
            lock.unlock()
            if !isLoopRunning { subscribeAttempts() }
            return
        }
        _ = state.finish()
        lock.unlock()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero(on: description)
        lock.lock()
        guard !state.isDone else {
            lock.unlock()
            return
        }
        state.outstanding += demand
        // Before the next attempt's subscription arrives, it is asked for all of it then.
        let current = state.current
        lock.unlock()
        current?.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard !state.isDone else {
            lock.unlock()
            return
        }
        let current = state.finish()
        lock.unlock()
        current?.cancel()
        lifetime.end(self)
    }
}
