// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// `count` must not be negative; a negative count traps when the publisher is subscribed.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// As in Combine, it asks upstream for the elements it will drop up front, whatever downstream's demand:
    /// the first request upstream is the demand downstream has made so far plus `count`, and a dropped
    /// element asks for nothing more. So a synchronous upstream that has nothing beyond the dropped elements
    /// completes without any demand from downstream.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits `count` elements before republishing later elements.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            require(count >= 0, "dropFirst(_:) requires a non-negative count (got \(count))")
            let subscription = DropSubscription(count: count, downstream: subscriber)
            // Combine hands its subscription downstream before subscribing upstream: demand that
            // arrives meanwhile is held and sent with the first request.
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

/// Drops the first `count` values. Demand is passed straight upstream once upstream has
/// subscribed; the `count` values to drop are asked for on top of the first request.
///
/// Lifetimes: downstream lives in the state until the stream ends; the call that ends it takes it
/// out under the lock and drops it after.
private final class DropSubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        /// Downstream has the subscription, upstream has not sent its own yet.
        /// `remaining` counts down already: as Combine's, a value before upstream's subscription
        /// is dropped or passed on too.
        case awaitingSubscription(Downstream, pending: Subscribers.Demand, remaining: Int)
        /// `remaining` values are still to be dropped.
        case subscribed(Downstream, any Subscription, remaining: Int)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    private let count: Int

    init(count: Int, downstream: Downstream) {
        self.count = count
        state = .awaitingSubscription(downstream, pending: .none, remaining: count)
    }

    var description: String { "Drop" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream, let pending, let remaining) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .subscribed(downstream, subscription, remaining: remaining)
        lock.unlock()
        let first = pending + count
        if first > 0 { subscription.request(first) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let downstream: Downstream
        switch state {
        case .subscribed(let live, let upstream, let remaining) where remaining > 0:
            // This value was asked for on top of downstream's demand: nothing to replace it with.
            state = .subscribed(live, upstream, remaining: remaining - 1)
            lock.unlock()
            return .none
        case .awaitingSubscription(let live, let pending, let remaining) where remaining > 0:
            state = .awaitingSubscription(live, pending: pending, remaining: remaining - 1)
            lock.unlock()
            return .none
        case .subscribed(let live, _, _), .awaitingSubscription(let live, _, _):
            downstream = live
        case .terminated, .abandoned:
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // Downstream already holds a subscription, so even a completion that arrives before
        // upstream's subscription can be delivered.
        let previous = lock.withLock { exchange(&state, with: .terminated) }
        switch previous {
        case .awaitingSubscription(let downstream, _, _), .subscribed(let downstream, _, _):
            downstream.receive(completion: completion)
        case .terminated, .abandoned:
            break
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        switch state {
        case .awaitingSubscription(let downstream, let pending, let remaining):
            state = .awaitingSubscription(downstream, pending: pending + demand, remaining: remaining)
            lock.unlock()
        case .subscribed(_, let upstream, _):
            lock.unlock()
            upstream.request(demand)
        case .terminated, .abandoned:
            lock.unlock()
        }
    }

    func cancel() {
        let previous = lock.withLock {
            if case .awaitingSubscription = state {
                exchange(&state, with: .abandoned)
            } else {
                exchange(&state, with: .terminated)
            }
        }
        if case .subscribed(_, let upstream, _) = previous {
            upstream.cancel()
        }
    }
}
