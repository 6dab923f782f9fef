// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

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
    @inlinable
    public func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Publishes the latest value of `other` each time this publisher publishes; see
    /// `withLatestFrom(_:resultSelector:)`.
    @inlinable
    public func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        withLatestFrom(other) { $1 }
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
        @inlinable
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = WithLatestFromSubscription<Upstream, Other, S>(
                upstream: upstream, downstream: subscriber, resultSelector: resultSelector)
            // Downstream first, so that whichever publisher ends the stream can deliver its
            // completion; requests made before upstream's subscription wait for it. Upstream is
            // subscribed at `other`'s first value.
            subscriber.receive(subscription: subscription)
            other.subscribe(WithLatestFromOtherSide(parent: subscription))
        }
    }
}

/// The subscription of `withLatestFrom`: upstream's subscriber, and downstream's subscription.
///
/// Its state machine says, for each event, what to call outside the lock. One thread at a time
/// delivers to downstream: a completion that comes while a value is being delivered (`other`
/// failing on another thread, or upstream completing from inside downstream's `receive`) waits
/// for the delivery to return.
@usableFromInline
final class WithLatestFromSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
        @usableFromInline typealias Live = (
            downstream: Downstream, resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input
        )
        /// Downstream and the result selector, until the stream ends.
        @usableFromInline var live: Live?
        /// The publisher to subscribe to at `other`'s first value.
        @usableFromInline var unsubscribed: Upstream?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var other: (any Subscription)?
        @usableFromInline var latest: Other.Output?
        /// Downstream's requests before upstream's subscription came.
        @usableFromInline var pendingDemand = Subscribers.Demand.none
        @usableFromInline var isDelivering = false
        /// A completion that came while a value was being delivered.
        @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?

        @inlinable
        init(upstream: Upstream, live: Live) {
            unsubscribed = upstream
            self.live = live
        }

        /// Neither ended nor ending.
        @inlinable var isLive: Bool { live != nil && pendingCompletion == nil }

        @usableFromInline
        enum Arrival {
            case ended
            case deliver(Downstream, (Upstream.Output, Other.Output) -> Downstream.Input, Other.Output)
        }

        /// What to do with a value from upstream. (Upstream is subscribed once `other` has a
        /// value.)
        @inlinable
        mutating func arrival() -> Arrival {
            guard isLive, let live, let latest else { return .ended }
            isDelivering = true
            return .deliver(live.downstream, live.resultSelector, latest)
        }

        /// Keeps `other`'s value; upstream to subscribe to, at the first one.
        @inlinable
        mutating func keep(_ value: Other.Output) -> Upstream? {
            guard isLive else { return nil }
            latest = value
            return unsubscribed.take()
        }

        /// A delivery returned: the completion that came meanwhile, if one did, which ends the
        /// stream (with what it lets go of, released outside the lock).
        @inlinable
        mutating func delivered() -> (Subscribers.Completion<Failure>, Live)? {
            isDelivering = false
            guard let completion = pendingCompletion.take(), let ended = live.take() else { return nil }
            return (completion, ended)
        }

        /// What ending the stream lets go of: downstream, to complete, and the subscriptions to cancel.
        @usableFromInline
        struct Ending {
            /// Downstream and the result selector, when the stream ends now.
            @usableFromInline var ended: Live?
            @usableFromInline var cancels: [any Subscription]

            @inlinable init(ended: Live?, cancels: [any Subscription]) {
                self.ended = ended
                self.cancels = cancels
            }
        }

        /// Ends the stream now, or, while a value is being delivered, when the delivery returns.
        /// `completion` is nil for a cancel.
        @inlinable
        mutating func end(with completion: Subscribers.Completion<Failure>?) -> Ending {
            guard isLive else { return Ending(ended: nil, cancels: []) }
            let cancels = [upstream, other].compactMap { $0 }
            upstream = nil
            other = nil
            latest = nil
            unsubscribed = nil
            if isDelivering, let completion {
                pendingCompletion = completion
                return Ending(ended: nil, cancels: cancels)
            }
            return Ending(ended: live.take(), cancels: cancels)
        }
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init(
        upstream: Upstream, downstream: Downstream,
        resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
    ) {
        state = State(upstream: upstream, live: (downstream, resultSelector))
    }

    @usableFromInline var description: String { "WithLatestFrom" }

    // MARK: From upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let (attached, demand) = lock.withLock { () -> (Bool, Subscribers.Demand) in
            guard state.isLive, state.upstream == nil else { return (false, .none) }
            state.upstream = subscription
            defer { state.pendingDemand = .none }
            return (true, state.pendingDemand)
        }
        guard attached else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch lock.withLock({ state.arrival() }) {
        case .ended:
            return .none
        case .deliver(let downstream, let resultSelector, let latest):
            let demand = downstream.receive(resultSelector(input, latest))
            guard let (completion, ended) = lock.withLock({ state.delivered() }) else { return demand }
            ended.downstream.receive(completion: completion)
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        finish(with: completion, completed: \.upstream)
    }

    // MARK: From other

    @inlinable
    func receiveOther(subscription: any Subscription) {
        let attached = lock.withLock { () -> Bool in
            guard state.isLive, state.other == nil else { return false }
            state.other = subscription
            return true
        }
        if attached { subscription.request(.unlimited) } else { subscription.cancel() }
    }

    @inlinable
    func receiveOther(_ value: Other.Output) {
        lock.withLock { state.keep(value) }?.subscribe(self)
    }

    @inlinable
    func receiveOther(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: lock.withLock { state.other = nil }
        case .failure: finish(with: completion, completed: \.other)
        }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: "WithLatestFrom")
        let target = lock.withLock { () -> (any Subscription)? in
            guard state.isLive else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        target?.request(demand)
    }

    @inlinable
    func cancel() {
        let ending = lock.withLock { state.end(with: nil) }
        for subscription in ending.cancels { subscription.cancel() }
    }

    /// Ends the stream with a completion from the publisher whose subscription `completed` names
    /// (which is not cancelled).
    @inlinable
    func finish(
        with completion: Subscribers.Completion<Failure>, completed: WritableKeyPath<State, (any Subscription)?>
    ) {
        let ending = lock.withLock {
            state[keyPath: completed] = nil
            return state.end(with: completion)
        }
        for subscription in ending.cancels { subscription.cancel() }
        ending.ended?.downstream.receive(completion: completion)
    }
}

/// `other`'s subscriber: hands everything to the subscription.
@usableFromInline
struct WithLatestFromOtherSide<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>: Subscriber
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Other.Output
    @usableFromInline typealias Failure = Other.Failure

    @usableFromInline let parent: WithLatestFromSubscription<Upstream, Other, Downstream>
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable init(parent: WithLatestFromSubscription<Upstream, Other, Downstream>) { self.parent = parent }

    @inlinable
    func receive(subscription: any Subscription) { parent.receiveOther(subscription: subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.receiveOther(input)
        return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { parent.receiveOther(completion: completion) }
}
