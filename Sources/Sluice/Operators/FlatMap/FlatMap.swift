// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify, and republishes the elements of all of them.
    ///
    /// Upstream is asked for `maxPublishers` elements, and for one more each time an inner
    /// publisher finishes. The stream finishes once upstream and every inner publisher have
    /// finished; any failure ends it at once.
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into a new publisher that cannot fail;
    /// the inner publishers are given this publisher's failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType(upstream: transform($0))
        }
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into new publishers
    /// that can; upstream is given the inner publishers' failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into new publishers, none of which can fail.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    // An inner publisher that hands over at most one value synchronously (`Just`, `Optional`, `Result`,
    // `Fail`, stages over them) or an `Empty` is not subscribed to: its value and completion are taken at
    // once, which is what subscribing to it would produce.
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// Downstream receives the subscription before upstream is subscribed. Each inner publisher
    /// is asked for one value at a time (or for `.unlimited` once downstream's demand is
    /// unlimited); a value that arrives while downstream has no demand waits in a buffer, and
    /// the inner publisher is asked for the next one when it is delivered. Values are delivered
    /// one at a time, whichever thread sends them.
    @frozen
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// A closure that takes an element as a parameter and returns a publisher that produces elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new publisher.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream, NewPublisher, S>(
                maxPublishers: maxPublishers, transform: transform, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(FlatMapOuter(parent: subscription))
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
            _Runtime.FlattenCursor(
                upstream: upstream._makeCursor(), cancelsUpstreamOnFailure: false, isStarved: maxPublishers == .none,
                transform: transform)
        }

        /// The fused flatMap as loops (see Flatten.swift); starved by `maxPublishers: .none`, as the cursor.
        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            if maxPublishers == .none { return forEachByCursor(receiveValue, receiveCompletion) }
            return upstream.forEachFlattened(
                transform, cancelsUpstreamOnFailure: false, receiveValue, receiveCompletion)
        }
    }
}

/// The subscriber upstream talks to; it carries the subscription's identifier.
@frozen @usableFromInline
struct FlatMapOuter<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber, SideSubscriber
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let parent: FlatMapSubscription<Upstream, NewPublisher, Downstream>

    @inlinable init(parent: FlatMapSubscription<Upstream, NewPublisher, Downstream>) { self.parent = parent }

    @inlinable var owner: FlatMapSubscription<Upstream, NewPublisher, Downstream> { parent }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable func receive(subscription: any Subscription) { parent.upstreamSubscribed(subscription) }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.upstreamSent(input) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.upstreamCompleted(completion) }
    }
}

/// The subscriber of one inner publisher, by its number.
@frozen @usableFromInline
struct FlatMapInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber, Introspected
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    @usableFromInline typealias Input = NewPublisher.Output
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let parent: FlatMapSubscription<Upstream, NewPublisher, Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(parent: FlatMapSubscription<Upstream, NewPublisher, Downstream>, index: Int) {
        self.parent = parent
        self.index = index
        combineIdentifier = CombineIdentifier()
    }

    @usableFromInline var description: String { "FlatMap" }

    /// As Combine's: the identifier of the subscription (the outer subscriber) it belongs to.
    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))])
    }

    @inlinable func receive(subscription: any Subscription) { parent.innerSubscribed(subscription, index: index) }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.innerSent(input, index: index) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.innerCompleted(completion, index: index) }
    }
}

/// The subscription of `flatMap`: its `FlatMapState` under one `Lock`, never held while calling out.
/// `isDone` lets an upstream value be dropped after the end without taking the lock.
@usableFromInline
final class FlatMapSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscription, SerialDelivering, Introspected
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    @usableFromInline typealias Value = NewPublisher.Output
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = FlatMapState<Value, Failure>

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @exclusivity(unchecked)
    @usableFromInline var transform: Releasable<(Upstream.Output) -> NewPublisher>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// Also here, to be read without the lock.
    @usableFromInline let maxPublishers: Subscribers.Demand
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable
    init(
        maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher,
        downstream: Downstream
    ) {
        self.maxPublishers = maxPublishers
        state = State(maxPublishers: maxPublishers)
        self.transform = Releasable(transform)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: FlatMapSubscription.self).release() }
    }

    /// Lets go of downstream and the closure: called once, when `lifetime` says so.
    @inlinable
    func release() {
        downstream.release()
        transform.release()
    }

    @usableFromInline var description: String { "FlatMap" }

    /// Changes the state under the lock; publishes its end to `isDone`.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { state.run(body, publishingTo: isDone) }
    }

    /// Inside a `lifetime` call: the stream's completion, once. (flatMaps nested in flatMaps
    /// complete one inside the other: past the limit, downstream hears it later.)
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard lifetime.end() else { return }
        let trampoline = Trampoline.current
        if trampoline.enter() {
            downstream.with { $0.receive(completion: completion) }
            trampoline.leave()
        } else if let target = downstream.value {
            trampoline.defer { target.receive(completion: completion) }
        }
    }

    @inlinable
    func perform(_ action: State.Action) {
        action.perform(complete: complete) { _ = drain(adding: .none) }
    }

    // MARK: Upstream

    @inlinable
    func upstreamSubscribed(_ subscription: any Subscription) {
        perform(withState { $0.upstreamArrived(subscription) })
    }

    @inlinable
    func upstreamSent(_ input: Upstream.Output) -> Subscribers.Demand {
        guard !isDone.load(ordering: .relaxed) else { return .none }
        let publisher = transform.with { $0(input) }
        if NewPublisher._Cursor._traits.contains(.yieldsAtMostOneValue) {
            // A one-shot inner publisher (`Just`, `Fail`, `Empty`, ... and stages over them) is
            // taken from its cursor, not subscribed to.
            var cursor = publisher._makeCursor()
            if cursor._isStarved {
                _ = withState { $0.openInner() }  // never subscribed to: it never ends
            } else {
                let (value, completion) = cursor.takeAtMostOne()
                takeImmediate(value, completion)
            }
        } else if let index = withState({ $0.openInner() }) {
            let inner = FlatMapInner(parent: self, index: index)
            // flatMaps nested in flatMaps subscribe one inside the other: past the limit, later.
            let trampoline = Trampoline.current
            if trampoline.enter() {
                publisher.subscribe(inner)
                trampoline.leave()
            } else {
                trampoline.defer { publisher.subscribe(inner) }
            }
        }
        return .none
    }

    /// What a subscription to a synchronous one-shot inner publisher would produce, without one:
    /// its value (delivered now or queued, as its request for one value would), then its completion.
    @inlinable
    func takeImmediate(_ value: Value?, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let index = State.unsubscribed
        guard let value, withState({ $0.innerValue(value, index: index) }).deliverNow else {
            // Nothing to deliver now (no value, the value waits, or the stream has ended): then
            // the inner publisher ends.
            return perform(withState { $0.innerEnded(completion, index: index) })
        }
        let more = deliver(value)
        guard case .finished = completion else {
            // Not from `Just` & co., but a stage may end the chain with a failure after a value.
            _ = drain(adding: more)
            return perform(withState { $0.innerEnded(completion, index: index) })
        }
        // The inner publisher is done before the drain, so that the drain may finish the stream.
        // With unlimited `maxPublishers` upstream is never asked again: the common case touches
        // no `(any Subscription)?` (copying even a nil one costs value-witness calls).
        if maxPublishers == .unlimited {
            _ = drain(adding: more)
            return
        }
        // Taken before the drain, which may see the stream end: the one more element is asked of
        // the upstream this inner publisher came from.
        let upstreamToAsk = withState { $0.liveUpstream }
        if drain(adding: more) { upstreamToAsk?.request(.max(1)) }
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        perform(withState { $0.upstreamEnded(completion) })
    }

    // MARK: Inner publishers

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, index: Int) {
        perform(withState { $0.innerArrived(subscription, index: index) })
    }

    @inlinable
    func innerSent(_ input: Value, index: Int) -> Subscribers.Demand {
        let (deliverNow, wasUnlimited) = withState { $0.innerValue(input, index: index) }
        guard deliverNow else { return .none }
        // flatMaps nested in flatMaps deliver one inside the other: past the limit, this caller
        // keeps the delivering turn and delivers later, then asks the inner publisher for more.
        let trampoline = Trampoline.current
        guard trampoline.enter() else {
            trampoline.defer { [self] in
                let delivered = lifetime.call(self) { () -> Bool in
                    let isLive = drain(adding: deliver(input))
                    if isLive && !wasUnlimited { withState { $0.inners[index] ?? nil }?.request(.max(1)) }
                    return isLive
                }
                if delivered == nil { withState { $0.stopDelivering() } }
            }
            return .none
        }
        let more = deliver(input)
        trampoline.leave()
        let isLive = drain(adding: more)
        return isLive && !wasUnlimited ? .max(1) : .none
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        perform(withState { $0.innerEnded(completion, index: index) })
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let (toUnlimit, delivers) = withState { $0.requested(demand) }
        for inner in toUnlimit { inner.request(.unlimited) }
        guard delivers else { return }
        if lifetime.call(self, { drain(adding: .none) }) == nil {
            withState { $0.stopDelivering() }
        }
    }

    @inlinable
    func cancel() {
        guard let (upstream, inners) = withState({ $0.cancelled() }) else { return }
        // Combine cancels the inner publishers first, then upstream.
        for inner in inners { inner.cancel() }
        upstream?.cancel()
        lifetime.end(self)
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    /// The holder's loop, after downstream answered `more` to the value it delivered: whether the
    /// stream is still live.
    @inlinable
    func drain(adding more: Subscribers.Demand) -> Bool {
        drain(withState { $0.nextDelivery(adding: more) })
    }

    @inlinable
    func deliver(_ value: Value) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { withState { $0.nextDelivery(adding: more) } }

    /// Asks the inner publisher of the value just delivered for one more.
    @inlinable
    func callOut(_ inner: any Subscription) -> State.Step {
        inner.request(.max(1))
        return withState { $0.nextDelivery(adding: .none) }
    }
}
