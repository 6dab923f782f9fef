// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// Each new publisher from upstream cancels the previous one and is asked for the demand
    /// downstream has outstanding. The stream finishes when upstream and the latest publisher
    /// have finished; a failure from either ends it.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher; upstream, which cannot
    /// fail, is given the inner publishers' failure type.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when neither upstream
    /// nor the inner publishers can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher; the inner publishers,
    /// which cannot fail, are given upstream's failure type.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    // A synchronous one-shot inner publisher (`Just`, `Optional`, `Result`, `Fail`, stages over them) or an
    // `Empty` is not subscribed to: its cursor waits for demand in the subscription, which is what a
    // subscription to it would do.
    /// A publisher that flattens nested publishers, republishing only the elements of the most
    /// recent one.
    ///
    /// Downstream receives the subscription before upstream is subscribed; upstream is asked for
    /// `.unlimited`. When a new publisher arrives, the previous one is cancelled and the new one,
    /// once subscribed, is asked for everything downstream requested and has not received;
    /// later requests pass straight to it.
    @frozen
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that “flattens” nested publishers.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
            _Runtime.FlattenCursor(upstream: upstream._makeCursor(), cancelsUpstreamOnFailure: true, isStarved: false) {
                $0
            }
        }

        /// The fused switchToLatest as loops (see Flatten.swift).
        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            upstream.forEachFlattened({ $0 }, cancelsUpstreamOnFailure: true, receiveValue, receiveCompletion)
        }
    }
}

/// The subscriber of one inner publisher; its generation tells a replaced publisher's signals apart.
@frozen @usableFromInline
struct SwitchToLatestInner<P: Publisher, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline typealias Input = P.Output
    @usableFromInline typealias Failure = P.Failure

    @usableFromInline let parent: SwitchToLatestSubscription<P, Downstream>
    @usableFromInline let generation: UInt
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(parent: SwitchToLatestSubscription<P, Downstream>, generation: UInt) {
        self.parent = parent
        self.generation = generation
        combineIdentifier = CombineIdentifier()
    }

    @inlinable func receive(subscription: any Subscription) {
        parent.innerSubscribed(subscription, generation: generation)
    }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.innerSent(input, generation: generation) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.innerCompleted(completion, generation: generation) }
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))])
    }
}

/// Follows the latest inner publisher: its `SwitchToLatestState` under one `Lock`, never held
/// while calling out. `isDone` lets an upstream value be dropped after the end without the lock.
@usableFromInline
final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, Subscriber,
    SerialDelivering, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline typealias Value = P.Output
    @usableFromInline typealias Input = P
    @usableFromInline typealias Failure = P.Failure
    @usableFromInline typealias State = SwitchToLatestState<P>

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: SwitchToLatestSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    /// Changes the state under the lock; publishes its end to `isDone`.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { state.run(body, publishingTo: isDone) }
    }

    /// Inside a `lifetime` call: the stream's completion, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @inlinable
    func perform(_ action: State.Action) {
        action.perform(complete: complete) { drain(withState { $0.nextDelivery(adding: .none) }) }
    }

    // MARK: Upstream (in Combine, the subscription is upstream's subscriber)

    @inlinable
    func receive(subscription: any Subscription) {
        perform(withState { $0.upstreamArrived(subscription) })
    }

    @inlinable
    func receive(_ publisher: P) -> Subscribers.Demand {
        lifetime.call(self) { upstreamSent(publisher) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) { perform(withState { $0.upstreamEnded(completion) }) }
    }

    @inlinable
    func upstreamSent(_ publisher: P) -> Subscribers.Demand {
        guard !isDone.load(ordering: .relaxed) else { return .none }
        let arrival: State.Arrival
        var cursor: P._Cursor?
        if P._Cursor._traits.contains(.yieldsAtMostOneValue) {
            // A one-shot publisher (`Just`, `Fail`, `Empty`, ... and stages over them) is taken
            // from its cursor, not subscribed to. Making a cursor, or looking at its end, runs no
            // user closure; the stages run when it is pulled.
            var made = publisher._makeCursor()
            if made._isStarved {
                arrival = .unending
            } else {
                let isExhausted = made.isExhausted
                arrival = .oneShot(made, isExhausted: isExhausted)
                cursor = made
            }
        } else {
            arrival = .subscription
        }
        let (replacesSubscription, then) = withState { $0.switchTo(arrival) }
        if replacesSubscription { withState { $0.takeReplaced() }?.cancel() }
        switch then {
        case .none:
            break
        case .endedAtOnce(let generation):
            if case .failure(let error) = cursor?.exhaustedCompletion() {
                perform(withState { $0.oneShotFailed(error, generation: generation) })
            }
        case .pull(let generation):
            if var cursor { drain(pull(&cursor, generation: generation)) }
        case .subscribe(let generation):
            publisher.subscribe(SwitchToLatestInner(parent: self, generation: generation))
        }
        return .none
    }

    // MARK: The inner publishers

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, generation: UInt) {
        perform(withState { $0.innerArrived(subscription, generation: generation) })
    }

    @inlinable
    func innerSent(_ input: Value, generation: UInt) -> Subscribers.Demand {
        switch withState({ $0.innerValue(input, generation: generation) }) {
        case .ignored, .queued:
            return .none
        case .beyondDemand:
            trap(
                "API violation: SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand"
            )
        case .deliver:
            let more = deliver(input)
            let (answer, next) = withState { state in
                (state.answered(more, generation: generation), state.nextDelivery(adding: .none))
            }
            drain(next)
            return answer
        }
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>, generation: UInt) {
        perform(withState { $0.innerEnded(completion, generation: generation) })
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        switch withState({ $0.requested(demand) }) {
        case .none:
            break
        case .forward(let inner):
            inner.request(demand)
        case .deliver:
            if lifetime.call(self, { drain(withState { $0.nextDelivery(adding: .none) }) }) == nil {
                withState { $0.stopDelivering() }
            }
        }
    }

    @inlinable
    func cancel() {
        guard let (upstream, inner, cursors) = withState({ $0.cancelled() }) else { return }
        // Combine cancels the inner publisher first, then upstream.
        inner?.cancel()
        upstream?.cancel()
        lifetime.end(self)
        _ = cursors  // let go of outside the lock: they hold the inner publishers' closures
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    @inlinable
    func deliver(_ value: Value) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { withState { $0.nextDelivery(adding: more) } }

    @inlinable
    func callOut(_ callout: State.Callout) -> State.Step {
        switch callout {
        case .request(let inner, let demand):
            inner.request(demand)
            return withState { $0.nextDelivery(adding: .none) }
        case .pull(let generation):
            guard var cursor = withState({ $0.takePulled() }) else {
                return withState { $0.nextDelivery(adding: .none) }
            }
            return pull(&cursor, generation: generation)
        }
    }

    /// The holder of the turn pulls a one-shot publisher's cursor: what its subscription would do on
    /// the demand there is.
    @inlinable
    func pull(_ cursor: inout P._Cursor, generation: UInt) -> State.Step {
        let (value, completion) = cursor.takeAtMostOne()
        var more = Subscribers.Demand.none
        if let value, withState({ $0.takesPulledValue(generation: generation) }) {
            more = deliver(value)
        }
        if case .failure(let error) = completion {
            perform(
                withState { state in
                    state.received(more)
                    return state.oneShotFailed(error, generation: generation)
                })
            more = .none
        }
        return withState { $0.nextDelivery(adding: more) }
    }
}
