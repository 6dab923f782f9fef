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
/// for the delivery to return, and so does the release of downstream after a cancel.
@usableFromInline
final class WithLatestFromSubscription<Upstream: Publisher, Other: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
where Upstream.Failure == Other.Failure, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias Live = (
        downstream: Downstream, resultSelector: (Upstream.Output, Other.Output) -> Downstream.Input
    )

    @usableFromInline
    struct State {
        /// The publisher to subscribe to at `other`'s first value.
        @usableFromInline var unsubscribed: Upstream?
        @usableFromInline var upstream: (any Subscription)?
        @usableFromInline var other: (any Subscription)?
        @usableFromInline var latest: Other.Output?
        /// Downstream's requests before upstream's subscription came.
        @usableFromInline var pendingDemand = Subscribers.Demand.none
        /// Values being delivered: more than one when upstream sends from inside downstream's
        /// `receive`. The stream's end waits for all of them to return.
        @usableFromInline var deliveries = 0
        /// Nothing more goes downstream (but a completion that waits for the delivery in hand).
        @usableFromInline var hasEnded = false
        /// What the delivery in hand does when it returns, the stream having ended meanwhile.
        @usableFromInline var afterDelivery: Ending?

        @inlinable
        init(upstream: Upstream) {
            unsubscribed = upstream
        }

        /// How the stream's end reaches downstream: a completion (then the release), or only the
        /// release of downstream and the result selector (a cancel).
        @usableFromInline
        enum Ending {
            case complete(Subscribers.Completion<Failure>)
            case release
        }

        /// A value from upstream: `other`'s latest value to combine it with, or nil if the stream
        /// has ended. (Upstream is subscribed once `other` has a value.)
        @inlinable
        mutating func arrival() -> Other.Output? {
            guard !hasEnded, let latest else { return nil }
            deliveries &+= 1
            return latest
        }

        /// Keeps `other`'s value; upstream to subscribe to, at the first one.
        @inlinable
        mutating func keep(_ value: Other.Output) -> Upstream? {
            guard !hasEnded else { return nil }
            latest = value
            return unsubscribed.take()
        }

        /// A delivery returned: how the stream ends now, if it ended meanwhile and this was the
        /// last delivery in hand.
        @inlinable
        mutating func delivered() -> Ending? {
            deliveries &-= 1
            guard deliveries == 0, afterDelivery != nil else { return nil }
            return afterDelivery.take()
        }

        /// Ends the stream: the subscriptions to cancel, and how the end reaches downstream now
        /// (nil once the stream has ended, or while a value is being delivered: the delivery then
        /// ends it when it returns). `completion` is nil for a cancel.
        @inlinable
        mutating func end(with completion: Subscribers.Completion<Failure>?) -> (
            cancels: [any Subscription], now: Ending?
        ) {
            guard !hasEnded else { return ([], nil) }
            hasEnded = true
            let cancels = [upstream, other].compactMap { $0 }
            upstream = nil
            other = nil
            latest = nil
            unsubscribed = nil
            let ending = completion.map(Ending.complete) ?? .release
            guard deliveries == 0 else {
                afterDelivery = ending
                return (cancels, nil)
            }
            return (cancels, ending)
        }
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State
    /// Downstream and the result selector: used by the thread delivering, and let go of when the
    /// stream has ended and no delivery runs (see `State.end`).
    @exclusivity(unchecked)
    @usableFromInline var live: Releasable<Live>

    @inlinable
    init(
        upstream: Upstream, downstream: Downstream,
        resultSelector: @escaping (Upstream.Output, Other.Output) -> Downstream.Input
    ) {
        state = State(upstream: upstream)
        live = Releasable((downstream, resultSelector))
    }

    @usableFromInline var description: String { "WithLatestFrom" }

    // MARK: From upstream

    @inlinable
    func receive(subscription: any Subscription) {
        let (attached, demand) = lock.withLock { () -> (Bool, Subscribers.Demand) in
            guard !state.hasEnded, state.upstream == nil else { return (false, .none) }
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
        lock.lock()
        let arrival = state.arrival()
        lock.unlock()
        guard let latest = arrival else { return .none }
        let demand = live.with { $0.downstream.receive($0.resultSelector(input, latest)) }
        lock.lock()
        let ending = state.delivered()
        lock.unlock()
        guard let ending else { return demand }
        end(ending)
        // After a cancel, upstream still hears what downstream returned, as the reference says.
        guard case .release = ending else { return .none }
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        finish(with: completion, completed: \.upstream)
    }

    // MARK: From other

    @inlinable
    func receiveOther(subscription: any Subscription) {
        let attached = lock.withLock { () -> Bool in
            guard !state.hasEnded, state.other == nil else { return false }
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
            guard !state.hasEnded else { return nil }
            if state.upstream == nil { state.pendingDemand += demand }
            return state.upstream
        }
        target?.request(demand)
    }

    @inlinable
    func cancel() {
        finish(with: nil, completed: nil)
    }

    /// Ends the stream with a completion (nil for a cancel) from the publisher whose subscription
    /// `completed` names (which is not cancelled).
    @inlinable
    func finish(
        with completion: Subscribers.Completion<Failure>?, completed: WritableKeyPath<State, (any Subscription)?>?
    ) {
        let (cancels, now) = lock.withLock {
            if let completed { state[keyPath: completed] = nil }
            return state.end(with: completion)
        }
        for subscription in cancels { subscription.cancel() }
        if let now { end(now) }
    }

    /// The stream has ended and no delivery runs: downstream gets the completion, if there is one,
    /// and is let go of.
    @inlinable
    func end(_ ending: State.Ending) {
        if case .complete(let completion) = ending { live.with { $0.downstream.receive(completion: completion) } }
        live.release()
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
