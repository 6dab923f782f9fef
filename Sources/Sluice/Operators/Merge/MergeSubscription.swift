// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The merge family's machinery: the subscription every arity of `Merge` (and `MergeMany`) runs
// on, and its sides; its state is in MergeState.swift, the public types in Merge.swift.

/// The subscriber a merge hands to one upstream: the merge subscription and the upstream's position. It
/// carries the subscription's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct MergeSide<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let parent: MergeSubscription<Downstream>
    @usableFromInline let index: Int

    @inlinable
    init(parent: MergeSubscription<Downstream>, index: Int) {
        self.parent = parent
        self.index = index
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable
    func receive(subscription: any Subscription) { parent.attach(subscription, at: index) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.offer(input, from: index) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.end(completion, from: index) }
    }
}

/// The subscription behind every merge: any number of upstreams, one downstream, its `MergeState`
/// under one inline `Lock` that is never held while calling out. A value costs two uncontended
/// lock round trips and no allocation, and a synchronous upstream's drain loop runs straight
/// through.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: Subscription, SerialDelivering, Introspected {
    @usableFromInline typealias Value = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = MergeState<Value, Failure>

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: MergeSubscription.self).downstream.release() }
        state = State(upstreamCount: upstreamCount)
    }

    @usableFromInline var description: String { "Merge" }

    /// Changes the state under the lock.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&state) }
    }

    /// Inside a `lifetime` call: the stream's completion, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @inlinable
    func perform(_ action: State.Action) {
        action.perform(complete: complete) { drain(withState { $0.nextDelivery() }) }
    }

    // MARK: Upstreams

    @inlinable
    func attach(_ subscription: any Subscription, at index: Int) {
        perform(withState { $0.attach(subscription, at: index) })
    }

    @inlinable
    func offer(_ value: Value, from index: Int) -> Subscribers.Demand {
        guard case .deliver = withState({ $0.offer(value, from: index) }) else { return .none }
        let more = deliver(value)
        let (answer, next) = withState { $0.offerDelivered(more, from: index) }
        if case .idle = next { return answer }
        drain(next)
        return answer
    }

    @inlinable
    func end(_ completion: Subscribers.Completion<Failure>, from index: Int) {
        perform(withState { $0.end(completion, from: index) })
    }

    /// A merge of no upstreams finishes as soon as it is subscribed.
    @usableFromInline
    func finishEmpty() {
        lifetime.call(self) {
            perform(withState { $0.isRunning && !$0.turn.isTaken ? $0.finish() : .none })
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lifetime.call(self) {
            let (everything, drains) = withState { $0.requested(demand) }
            for upstream in everything { upstream.request(.unlimited) }
            if drains { drain(withState { $0.nextDelivery() }) }
        }
    }

    @inlinable
    func cancel() {
        guard let live = withState({ $0.cancelled() }) else { return }
        for upstream in live { upstream.cancel() }
        lifetime.end(self)
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    @inlinable
    func deliver(_ value: Value) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { withState { $0.delivered(more) } }

    /// Asks the upstream of the value just delivered for the next one.
    @inlinable
    func callOut(_ upstream: any Subscription) -> State.Step {
        upstream.request(.max(1))
        return withState { $0.nextDelivery() }
    }
}
