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
/// One lock over one `RetryState`, never held while calling out.
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription, Subscriber, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias State = RetryState<Upstream>

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable
    init(upstream: Upstream, retries: Int?, downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: RetrySubscription.self).downstream.release() }
        state = State(upstream: upstream, retriesLeft: retries)
    }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    @usableFromInline var description: String { "Retry" }

    /// Subscribes upstream once per attempt that needs it, until none does (unless another call
    /// runs this loop: it picks up the attempt due).
    @inlinable
    func subscribeAttempts() {
        guard withState({ $0.startSubscribing() }) else { return }
        while let upstream = withState({ $0.nextAttempt() }) { upstream.subscribe(self) }
    }

    // MARK: From the attempts

    @inlinable
    func receive(subscription: any Subscription) {
        withState { $0.subscribed(subscription) }.perform(on: subscription) {
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch withState({ $0.received() }) {
        case .drop:
            return .none
        case .trapBeforeSubscription:
            trap("API violation: Retry received a value before its subscription")
        case .trapBeyondDemand:
            trap("API violation: Retry received a value while downstream had no outstanding demand")
        case .deliver(let isUnlimited):
            let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
            guard more != .none && !isUnlimited else { return .none }
            withState { $0.delivered(more) }?.request(more)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        switch withState({ $0.completed(completion) }) {
        case .none:
            break
        case .retry(let startsLoop):
            if startsLoop { subscribeAttempts() }
        case .finish:
            lifetime.call(self) {
                if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
            }
        }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        withState { $0.requested(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
        let (live, current) = withState { $0.cancelled() }
        guard live else { return }
        current?.cancel()
        lifetime.end(self)
    }
}
