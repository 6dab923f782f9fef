// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    ///
    /// When the upstream finishes, a last, shorter array is emitted if any element is left over.
    /// When it fails, the elements left over are dropped and the failure is passed on.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that buffers a maximum number of items.
    ///
    /// Demand is counted in arrays: a request for `n` arrays asks upstream for `n * count`
    /// elements, and the demand downstream returns for an array comes back multiplied the same way.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that publishes the elements of `upstream` in arrays of `count`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByCountSubscription(count: count, downstream: subscriber))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// Fills arrays of `count` elements. Downstream lives in the state until the stream ends; the
/// call that ends it takes it out (with the unfinished array) under the lock and drops it after.
private final class CollectByCountSubscription<Input, Downstream: Subscriber>:
    Subscriber, Subscription, Introspected
where Downstream.Input == [Input] {
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    /// Set by `cancel()`: the completion does not follow a last value that a cancel came after.
    private var cancelled = false
    /// The elements of the array being filled: always fewer than `count` between calls.
    private var buffer: [Input] = []
    private let count: Int

    init(count: Int, downstream: Downstream) {
        self.count = count
        state = .awaitingSubscription(downstream)
    }

    var description: String { "CollectByCount" }

    /// Combine's children: the subscriber, upstream's subscription, the array being filled, the count.
    var customMirror: Mirror {
        lock.withLock {
            let (downstream, upstream): (Downstream?, (any Subscription)?) =
                switch state {
                case .awaitingSubscription(let downstream): (downstream, nil)
                case .subscribed(let downstream, let upstream): (downstream, upstream)
                case .terminated, .abandoned: (nil, nil)
                }
            return Mirror(
                self,
                children: [
                    ("downstream", downstream as Any), ("upstreamSubscription", upstream as Any), ("buffer", buffer),
                    ("count", count),
                ])
        }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .subscribed(downstream, upstream: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let downstream, _) = state else {
            lock.unlock()
            return .none
        }
        buffer.append(input)
        guard buffer.count >= count else {
            lock.unlock()
            return .none
        }
        let full = buffer
        buffer = []
        lock.unlock()
        // The demand downstream returns is in arrays; upstream counts elements. A stream that
        // ended during the delivery (downstream cancelled) owes upstream nothing.
        let more = downstream.receive(full)
        return lock.withLock {
            guard case .subscribed = state else { return .none }
            return more * count
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        let downstream: Downstream
        switch previous {
        case .subscribed(let subscriber, _), .awaitingSubscription(let subscriber):
            // As Combine's, a completion before upstream's subscription is passed on (alone).
            downstream = subscriber
        case .terminated, .abandoned:
            lock.unlock()
            return
        }
        state = .terminated
        let rest = buffer
        buffer = []
        lock.unlock()
        switch completion {
        case .finished:
            // A shorter, last array. Upstream can only have sent its elements against demand for
            // an array that is not full yet, so that demand covers it.
            downstream.receiveLast(rest.isEmpty ? nil : rest, then: .finished) { lock.withLock { cancelled } }
        case .failure:
            downstream.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard case .subscribed(_, let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand * count)
    }

    func cancel() {
        lock.lock()
        // `previous` and `dropped` keep what the stream held until the lock is released.
        let previous = state
        let dropped = buffer
        cancelled = true
        if case .awaitingSubscription = previous { state = .abandoned } else { state = .terminated }
        buffer = []
        lock.unlock()
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
        withExtendedLifetime(dropped) {}
    }
}
