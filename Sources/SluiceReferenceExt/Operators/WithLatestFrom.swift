// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluiceReference

extension Publisher {
    /// Combines each value of this publisher with the latest value of `other`, through
    /// `resultSelector`.
    ///
    /// - `other` is subscribed first and asked for everything; this publisher is subscribed when
    ///   `other` has published its first value, so a cold publisher loses none of its values, and
    ///   gets downstream's demand (that made before then too).
    /// - The stream ends when this publisher completes or either publisher fails; the other one is
    ///   then cancelled. When `other` finishes, its last value stays the latest; when it finishes
    ///   without one, the stream waits for a cancel, as in CombineExt.
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Publishes the latest value of `other` each time this publisher publishes; see
    /// `withLatestFrom(_:resultSelector:)`.
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        withLatestFrom(other) { _, latest in latest }
    }
}

extension Publishers {
    /// A publisher that combines each value of its upstream with the latest value of another
    /// publisher.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Failure = Upstream.Failure
        /// Makes the published value from an upstream value and `other`'s latest.
        public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

        /// The publisher whose values are combined.
        public let upstream: Upstream
        /// The publisher whose latest value each upstream value is combined with.
        public let other: Other
        /// Makes the published value from an upstream value and `other`'s latest.
        public let resultSelector: (Upstream.Output, Other.Output) -> Output

        /// Creates a publisher that combines each value of `upstream` with the latest of `other`.
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = WithLatestFromSubscription(
                upstream: upstream.eraseToAnyPublisher(), downstream: AnySubscriber(subscriber),
                resultSelector: resultSelector)
            subscriber.receive(subscription: subscription)
            other.subscribe(
                AnySubscriber<Other.Output, Failure>(
                    receiveSubscription: { subscription.otherSubscribed($0) },
                    receiveValue: {
                        subscription.otherPublished($0)
                        return .none
                    },
                    receiveCompletion: { subscription.otherCompleted($0) }))
        }
    }
}

/// The subscription of `withLatestFrom`, under one lock.
///
/// Downstream is called by one thread at a time: a completion that arrives while a value is being
/// delivered (from `other` on another thread, or from upstream re-entrantly) is kept and delivered
/// when that delivery returns.
private final class WithLatestFromSubscription<Input, Latest, Output, Failure: Error>: Subscriber, Subscription,
    CustomStringConvertible
{
    enum State {
        case live(Live)
        /// A completion came while a value was being delivered.
        case ending(Subscribers.Completion<Failure>)
        case ended
    }

    struct Live {
        var downstream: AnySubscriber<Output, Failure>
        var resultSelector: (Input, Latest) -> Output
        var upstream: (any Subscription)?
        var other: (any Subscription)?
        /// The publisher subscribed to at `other`'s first value.
        var unsubscribed: AnyPublisher<Input, Failure>?
        var latest: Latest?
        var demandBeforeUpstream = Subscribers.Demand.none
        var isDelivering = false
    }

    private let lock = Lock()
    private var state: State

    init(
        upstream: AnyPublisher<Input, Failure>, downstream: AnySubscriber<Output, Failure>,
        resultSelector: @escaping (Input, Latest) -> Output
    ) {
        state = .live(Live(downstream: downstream, resultSelector: resultSelector, unsubscribed: upstream))
    }

    var description: String { "WithLatestFrom" }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        let demand = lock.withLock { () -> Subscribers.Demand? in
            guard case .live(var live) = state, live.upstream == nil else { return nil }
            live.upstream = subscription
            let demand = live.demandBeforeUpstream
            live.demandBeforeUpstream = .none
            state = .live(live)
            return demand
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        // Upstream is subscribed once `other` has a value.
        let delivery = lock.withLock { () -> (Live, Latest)? in
            guard case .live(var live) = state, let latest = live.latest else { return nil }
            live.isDelivering = true
            state = .live(live)
            return (live, latest)
        }
        guard let (live, latest) = delivery else { return .none }
        let demand = live.downstream.receive(live.resultSelector(input, latest))
        let completion = lock.withLock { () -> Subscribers.Completion<Failure>? in
            switch state {
            case .live(var current):
                current.isDelivering = false
                state = .live(current)
                return nil
            case .ending(let completion):
                state = .ended
                return completion
            case .ended:
                return nil
            }
        }
        if let completion {
            live.downstream.receive(completion: completion)
            return .none
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) { end(with: completion, from: \.upstream) }

    // MARK: Other

    func otherSubscribed(_ subscription: any Subscription) {
        let attached = lock.withLock { () -> Bool in
            guard case .live(var live) = state, live.other == nil else { return false }
            live.other = subscription
            state = .live(live)
            return true
        }
        if attached { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    func otherPublished(_ value: Latest) {
        let unsubscribed = lock.withLock { () -> AnyPublisher<Input, Failure>? in
            guard case .live(var live) = state else { return nil }
            live.latest = value
            defer { live.unsubscribed = nil; state = .live(live) }
            return live.unsubscribed
        }
        unsubscribed?.subscribe(self)
    }

    func otherCompleted(_ completion: Subscribers.Completion<Failure>) {
        guard case .finished = completion else { return end(with: completion, from: \.other) }
        lock.withLock {
            guard case .live(var live) = state else { return }
            live.other = nil
            state = .live(live)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "WithLatestFrom")
        let upstream = lock.withLock { () -> (any Subscription)? in
            guard case .live(var live) = state else { return nil }
            if live.upstream == nil {
                live.demandBeforeUpstream += demand
                state = .live(live)
            }
            return live.upstream
        }
        upstream?.request(demand)
    }

    func cancel() { end(with: nil, from: nil) }

    /// Ends the stream: cancels the subscriptions but that of the publisher it came `from`, then
    /// completes downstream (nil: a cancel). A completion that comes while a value is being
    /// delivered is delivered when that returns.
    private func end(
        with completion: Subscribers.Completion<Failure>?, from source: WritableKeyPath<Live, (any Subscription)?>?
    ) {
        let ended = lock.withLock { () -> Live? in
            guard case .live(var live) = state else { return nil }
            if let source { live[keyPath: source] = nil }
            if live.isDelivering, let completion {
                state = .ending(completion)
            } else {
                state = .ended
            }
            return live
        }
        guard let ended else { return }
        ended.upstream?.cancel()
        ended.other?.cancel()
        if !ended.isDelivering, let completion { ended.downstream.receive(completion: completion) }
    }
}
