// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// `FanInSubscription`, the subscription of a `zip` or `combineLatest`, and `FanInSide`, its subscriber to
// each upstream. Their state: FanInState.swift; the slots and lanes, and how they fit together: FanIn.swift.

/// The subscription of a `zip` or `combineLatest`, over the slots of its arity and kind: its state
/// is a `FanInState` under one inline lock, never held while calling out, and it delivers through
/// the state's delivering turn.
@usableFromInline
final class FanInSubscription<Slots: FanInSlots, Downstream: Subscriber>: Subscription, SerialDelivering,
    Introspected
where Downstream.Input == Slots.Output {
    @usableFromInline typealias Value = Slots.Output
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = FanInState<Slots, Failure>

    /// Used only inside calls through `lifetime` (`start` and the deliveries).
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: FanInSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { Slots.pairs ? "Zip" : "CombineLatest" }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    /// Gives downstream its subscription once every upstream is subscribed (the turn is taken until
    /// then), then delivers whatever arrived meanwhile.
    @inlinable
    func start() {
        lifetime.call(self) {
            downstream.with { $0.receive(subscription: self) }
            drain(withState { $0.nextDelivery() })
        }
    }

    /// Subscribes `upstream` as the lane `Lane`.
    @inlinable
    func attach<Upstream: Publisher, Lane: FanInLane>(_ upstream: Upstream, as _: Lane.Type)
    where Upstream.Output == Lane.Value, Upstream.Failure == Downstream.Failure, Lane.Slots == Slots {
        upstream.subscribe(FanInSide<Lane, Downstream>(self))
    }

    // MARK: Upstreams

    @inlinable
    func receive(subscription: any Subscription, lane: Int) {
        guard let ask = withState({ $0.attach(subscription, lane: lane) }) else { return subscription.cancel() }
        if ask != .none { subscription.request(ask) }
    }

    @inlinable
    func receive<Lane: FanInLane>(_ value: Lane.Value, in _: Lane.Type) -> Subscribers.Demand
    where Lane.Slots == Slots {
        lock.lock()
        guard let tuple = state.received(value, in: Lane.self) else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return lifetime.call(self) {
            let (next, answer) = settle(deliver(tuple))
            if case .idle = next { return answer }
            return drive(next)
        } ?? .none
    }

    /// The rest of a turn an upstream's value started: `drain`, but answering that upstream with
    /// the demand owed to it once the turn ends, for every tuple delivered meanwhile. A stream that
    /// ended in the turn has cancelled that upstream: it is asked for nothing more, as the
    /// reference's loop answers.
    @inlinable
    func drive(_ first: State.Step) -> Subscribers.Demand {
        var step = first
        while true {
            switch consume step {
            case .value(let tuple):
                let (next, answer) = settle(deliver(tuple))
                if case .idle = next { return answer }
                step = next
            case .completion(let completion):
                complete(completion)
                return .none
            case .idle, .ended: return .none
            }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, lane: Int) {
        let (released, first) = withState { $0.completed(completion, lane: lane) }
        withExtendedLifetime(released) {}
        if let first { lifetime.call(self) { drain(first) } }
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        more.assertNonZero(on: description)
        let (others, first) = withState { $0.requested(more) }
        others.request(more)
        if let first { lifetime.call(self) { drain(first) } }
    }

    @inlinable
    func cancel() {
        guard let (running, values) = withState({ state in state.cancelled().map { ($0, state.takeValues()) } })
        else { return }
        running.cancel()
        lifetime.end(self)
        _ = values  // let go of outside the lock: their deinit may run anything
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    @inlinable
    func deliver(_ value: Value) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { settle(more).step }

    @inlinable
    func callOut(_ callout: Never) -> State.Step {}

    /// Counts what downstream answered to a delivery and asks the other upstreams for it; the next
    /// step, and the demand owed to the upstream whose value started the turn.
    @inlinable @inline(__always)
    func settle(_ more: Subscribers.Demand) -> (step: State.Step, answer: Subscribers.Demand) {
        lock.lock()
        // No demand returned (the common case): no upstream to ask, and no existentials to copy.
        guard more != .none else {
            let settled = state.settle()
            lock.unlock()
            return settled
        }
        let others = state.isTerminated ? FanInUpstreams() : state.add(more)
        let settled = state.settle()
        lock.unlock()
        if !settled.step.ends { others.request(more) }
        return settled
    }

    /// The stream's end: cancels the upstreams still running, lets go of the stored values, and
    /// delivers the completion once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let (running, values) = withState { ($0.takeEnding(), $0.takeValues()) }
        _ = values
        running.cancel()
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }
}

/// Subscribes to one upstream of a fan-in; its lane type says which slot the values go to.
@frozen @usableFromInline
struct FanInSide<Lane: FanInLane, Downstream: Subscriber>: Subscriber where Downstream.Input == Lane.Slots.Output {
    @usableFromInline typealias Input = Lane.Value
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let core: FanInSubscription<Lane.Slots, Downstream>
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(_ core: FanInSubscription<Lane.Slots, Downstream>) {
        self.core = core
        combineIdentifier = CombineIdentifier()
    }

    @inlinable
    func receive(subscription: any Subscription) { core.receive(subscription: subscription, lane: Lane.index) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { core.receive(input, in: Lane.self) }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { core.receive(completion: completion, lane: Lane.index) }
}
