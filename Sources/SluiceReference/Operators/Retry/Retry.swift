// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of
    /// times you specify.
    ///
    /// `retry(n)` makes at most `n + 1` attempts; each new attempt is asked for the demand
    /// downstream still has outstanding, and the last attempt's failure is passed on. A negative
    /// count retries without limit.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of retry attempts to perform; `nil` (or a negative count) retries without limit.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream publisher.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let limit = retries.flatMap { $0 >= 0 ? $0 : nil }
            RetrySubscription(upstream: upstream, retries: limit, downstream: subscriber).start()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

/// The subscription of `retry`. Downstream sees one subscription, handed over when the first
/// attempt's subscription arrives. As in Combine, it is also every attempt's subscriber: an
/// attempt ends with its completion, and what comes after is the next attempt's.
///
/// An attempt that fails synchronously, inside `subscribe`, does not subscribe the next one
/// from that deep in the stack: it leaves a note, and the loop in `subscribeAttempts` that is
/// already running starts the next attempt. So the stack stays flat however many attempts fail.
///
/// Lifetimes: downstream and the upstream publisher are in `live` until the stream ends; the call
/// that ends it (the last completion, a cancel) takes them out with the state and drops them after
/// the lock is released.
private final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription, Subscriber,
    Introspected
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum State {
        /// The current attempt has subscribed upstream; its subscription has not arrived yet.
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// Retries still allowed; `nil` for no limit.
    private var retriesLeft: Int?
    /// Requested by downstream and not yet delivered, plus the demand it returned for each value.
    private var demand = Subscribers.Demand.none
    private var downstreamHasSubscription = false
    /// The loop of `subscribeAttempts` is running; a failure only leaves a note for it.
    private var isSubscribing = false
    private var attemptPending = false

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        /// The publisher each attempt subscribes to.
        let upstream: Upstream
    }

    /// `nil` once the stream has ended.
    private var live: Live?

    init(upstream: Upstream, retries: Int?, downstream: Downstream) {
        retriesLeft = retries
        live = Live(downstream: downstream, upstream: upstream)
    }

    var description: String { "Retry" }

    func start() {
        lock.withLock {
            isSubscribing = true
            attemptPending = true
        }
        subscribeAttempts()
    }

    /// Subscribes upstream once per pending attempt. Runs with `isSubscribing` set.
    private func subscribeAttempts() {
        lock.lock()
        while attemptPending, let upstream = live?.upstream {
            attemptPending = false
            lock.unlock()
            upstream.subscribe(self)
            lock.lock()
        }
        isSubscribing = false
        lock.unlock()
    }

    private var isTerminated: Bool {
        if case .terminated = state { true } else { false }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard case .subscribed(let source) = state else {
            // The next attempt asks for it when its subscription arrives.
            lock.unlock()
            return
        }
        lock.unlock()
        source.request(demand)
    }

    func cancel() {
        lock.lock()
        let (previous, ended) = end()
        lock.unlock()
        if case .subscribed(let source) = previous {
            source.cancel()
        }
        withExtendedLifetime(ended) {}
    }

    /// Moves to `.terminated` and hands over what the stream held (the state before, downstream
    /// and the upstream publisher), for the caller to use and drop after it releases the lock.
    /// Called with the lock held.
    private func end() -> (previous: State, live: Live?) {
        (exchange(&state, with: .terminated), live.take())
    }

    // MARK: Upstream, one attempt at a time

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        let isFirst = !downstreamHasSubscription
        downstreamHasSubscription = true
        let outstanding = demand
        let downstream = live?.downstream
        lock.unlock()
        if isFirst {
            downstream?.receive(subscription: self)
        } else if outstanding > 0 {
            subscription.request(outstanding)
        }
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard !isTerminated, let downstream = live?.downstream else {
            lock.unlock()
            return .none
        }
        // As Combine's: a value before downstream has its subscription traps, a value beyond the
        // demand traps; a later attempt's value before that attempt's subscription is delivered.
        let (early, overrun, unlimited) = (!downstreamHasSubscription, demand == .none, demand == .unlimited)
        if !early && !overrun { demand -= 1 }
        lock.unlock()
        require(!early, "API violation: Retry received a value before its subscription")
        require(!overrun, "API violation: Retry received a value while downstream had no outstanding demand")
        let more = downstream.receive(input)
        // With unlimited demand there is nothing more to ask for.
        guard more > 0, !unlimited else { return .none }
        // As Combine's, more demand goes upstream as a request of its own, not as the answer.
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return .none
        }
        demand += more
        let source: (any Subscription)? = if case .subscribed(let source) = state { source } else { nil }
        lock.unlock()
        source?.request(more)
        return .none
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        // As Combine's, an attempt's completion counts even before its subscription: a failure
        // is retried, a finish is delivered (RetryTests.testRetryReceiveCompletionBeforeSubscription).
        guard !isTerminated else {
            lock.unlock()
            return
        }
        // Kept until the lock is released: the finished attempt's subscription.
        let finished = state
        if case .failure = completion, retriesLeft != 0 {
            // The failed attempt is done: nothing to cancel. Start the next one.
            retriesLeft = retriesLeft.map { $0 - 1 }
            state = .awaitingSubscription
            attemptPending = true
            if isSubscribing {
                lock.unlock()
                return
            }
            isSubscribing = true
            lock.unlock()
            withExtendedLifetime(finished) {}
            subscribeAttempts()
            return
        }
        let (_, ended) = end()
        lock.unlock()
        ended?.downstream.receive(completion: completion)
        withExtendedLifetime(finished) {}
    }
}
