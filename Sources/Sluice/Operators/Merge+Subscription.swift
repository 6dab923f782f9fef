// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The merge family's machinery: the subscription every arity of `Merge` (and `MergeMany`) runs
// on, its sides and its lanes. The public types are in Merge.swift.

/// The subscriber a merge hands to one upstream: the merge subscription and the upstream's position. It
/// carries the subscription's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct _MergeSide<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let parent: _MergeSubscription<Downstream>
    @usableFromInline let index: Int

    @inlinable
    init(parent: _MergeSubscription<Downstream>, index: Int) {
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

/// One upstream's place in the merge: its subscription while live, and the values of it that wait
/// for demand or for another thread's delivery to end. The queue keeps its storage when it empties,
/// so a steady stream of waiting values allocates nothing.
@frozen @usableFromInline
struct _MergeLane<Value> {
    @usableFromInline var subscription: (any Subscription)?
    /// False before the subscription arrives and after the upstream has ended.
    @usableFromInline var isLive = false
    @usableFromInline var hasEnded = false
    @usableFromInline var queue = RingBuffer<Value>()

    @inlinable init() {}
}

/// The merge's state, kept under its subscription's lock. Each event changes it and returns what the
/// subscription does once it has unlocked; nothing here calls out.
///
/// Delivery is serial without blocking anyone: the call that finds nobody delivering takes the
/// `delivering` turn, calls downstream, and before giving the turn back delivers whatever arrived
/// meanwhile (from other threads, or re-entrantly) and was queued on its lane. `owed` is
/// downstream's outstanding demand as a count, `UInt.max` meaning unlimited.
@usableFromInline
struct _MergeState<Value, Failure: Error> {
    @usableFromInline enum Phase {
        case running
        /// Every upstream finished: `.finished` goes out after the last waiting value.
        case finishing
        /// An upstream failed during another call's delivery; that call sends the failure on.
        case failing(Failure)
        case done
    }

    @usableFromInline typealias Action = _MachineAction<Failure>

    /// What the delivering caller does next.
    @usableFromInline enum Delivery {
        /// Delivers a waiting value of this lane, then reports downstream's answer to `delivered`.
        case value(Value, lane: Int)
        /// The value's upstream was answered `.none` when it came: it may send the next.
        case askForOne(any Subscription)
        case completion(Subscribers.Completion<Failure>)
        /// The turn is given back.
        case idle
    }

    @usableFromInline var phase = Phase.running
    @usableFromInline var lanes: ContiguousArray<_MergeLane<Value>>
    @usableFromInline var owed: UInt = 0
    @usableFromInline var delivering = false
    /// Values waiting across all lanes: the common case (none) is one comparison.
    @usableFromInline var waitingCount = 0
    @usableFromInline var unfinished: Int

    @inlinable
    init(upstreamCount: Int) {
        lanes = ContiguousArray(repeating: _MergeLane(), count: upstreamCount)
        unfinished = upstreamCount
    }

    @inlinable var isUnlimited: Bool { owed == .max }

    @inlinable var isRunning: Bool {
        if case .running = phase { true } else { false }
    }

    @inlinable var isDone: Bool {
        if case .done = phase { true } else { false }
    }

    // MARK: Upstreams

    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Action {
        guard isRunning, !lanes[index].isLive, !lanes[index].hasEnded else { return .cancel(subscription) }
        lanes[index].isLive = true
        lanes[index].subscription = subscription
        // As Combine: one value at a time unless downstream wants everything.
        return .request(subscription, isUnlimited ? .unlimited : .max(1))
    }

    /// What becomes of an upstream's value.
    @usableFromInline enum Offer {
        /// The stream or the upstream has ended.
        case ignored
        /// It waits on its lane (another call delivers, or there is no demand).
        case queued
        /// The caller delivers it now: it has taken the delivering turn.
        case deliver
    }

    @inlinable
    mutating func offer(_ value: Value, from index: Int) -> Offer {
        guard isRunning, lanes[index].isLive else { return .ignored }
        if delivering || owed == 0 {
            lanes[index].queue.append(value)
            waitingCount += 1
            return .queued
        }
        delivering = true
        if owed != .max { owed -= 1 }
        return .deliver
    }

    /// Downstream answered `more` to a value the caller delivered from upstream `index`: the
    /// demand to return to that upstream, and the caller's next step.
    @inlinable
    mutating func offerDelivered(_ more: Subscribers.Demand, from index: Int) -> (
        answer: Subscribers.Demand, next: Delivery
    ) {
        if more != .none { owed = more._adding(to: owed) }
        // The upstream may send its next value, unless it was asked for everything already or the
        // stream or this upstream ended meanwhile.
        let answer: Subscribers.Demand = !isUnlimited && isRunning && lanes[index].isLive ? .max(1) : .none
        return (answer, nextDelivery())
    }

    @inlinable
    mutating func end(_ completion: Subscribers.Completion<Failure>, from index: Int) -> Action {
        guard isRunning, lanes[index].isLive else { return .none }
        if case .failure(let error) = completion {
            // Combine cancels every upstream, the failed one included.
            let live = cutLanes()
            guard !delivering else {
                phase = .failing(error)
                return .end(cancelling: live, nil)
            }
            phase = .done
            return .end(cancelling: live, completion)
        }
        lanes[index].isLive = false
        lanes[index].hasEnded = true
        lanes[index].subscription = nil
        unfinished -= 1
        guard unfinished == 0 else { return .none }
        return finish()
    }

    /// Every upstream has finished (or there were none): `.finished` follows the waiting values.
    @inlinable
    mutating func finish() -> Action {
        phase = .finishing
        guard !delivering else { return .none }
        delivering = true
        return .drain
    }

    // MARK: Downstream

    /// Downstream's request: the upstreams to ask for everything now (demand became unlimited),
    /// and whether the caller has taken the delivering turn (values wait, or the end does).
    @inlinable
    mutating func requested(_ demand: Subscribers.Demand) -> (
        everything: ContiguousArray<any Subscription>, drains: Bool
    ) {
        switch phase {
        case .running, .finishing: break
        case .failing, .done: return ([], false)
        }
        guard !isUnlimited else { return ([], false) }
        owed = demand._adding(to: owed)
        var everything: ContiguousArray<any Subscription> = []
        if isUnlimited {
            // From now on every upstream is asked for everything; until now each had one value
            // outstanding or waiting.
            for lane in lanes where lane.isLive { everything.append(lane.subscription!) }
        }
        if delivering || (waitingCount == 0 && isRunning) { return (everything, false) }
        // The caller holds the turn while asking: whatever upstream sends from inside the
        // request queues up behind the values that already wait.
        delivering = true
        return (everything, true)
    }

    /// Downstream cancelled: the upstreams to cancel, or nil if the stream had ended.
    @inlinable
    mutating func cancelled() -> ContiguousArray<any Subscription>? {
        guard !isDone else { return nil }
        phase = .done
        return cutLanes()
    }

    /// Ends every lane, dropping waiting values; returns the subscriptions to cancel.
    @inlinable
    mutating func cutLanes() -> ContiguousArray<any Subscription> {
        var live: ContiguousArray<any Subscription> = []
        for index in lanes.indices {
            if lanes[index].isLive, let upstream = lanes[index].subscription { live.append(upstream) }
            lanes[index] = _MergeLane()
            lanes[index].hasEnded = true
        }
        waitingCount = 0
        return live
    }

    // MARK: Delivery

    /// The delivering caller's next step: waiting values, lowest lane first, while there is
    /// demand, then a completion that waits for them.
    @inlinable
    mutating func nextDelivery() -> Delivery {
        switch phase {
        case .done:
            delivering = false
            return .idle
        case .failing(let error):
            phase = .done
            delivering = false
            return .completion(.failure(error))
        case .running, .finishing:
            break
        }
        if waitingCount > 0 && owed > 0 {
            var index = 0
            while lanes[index].queue.isEmpty { index += 1 }
            let value = lanes[index].queue.removeFirst()
            waitingCount -= 1
            if owed != .max { owed -= 1 }
            return .value(value, lane: index)
        }
        if case .finishing = phase, waitingCount == 0 {
            phase = .done
            delivering = false
            return .completion(.finished)
        }
        delivering = false
        return .idle
    }

    /// Downstream answered `more` to a waiting value of lane `index` that the caller delivered.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand, lane index: Int) -> Delivery {
        if more != .none { owed = more._adding(to: owed) }
        // The value was answered with `.none` when it came: its upstream may send the next.
        if isRunning, !isUnlimited, lanes[index].isLive, let upstream = lanes[index].subscription {
            return .askForOne(upstream)
        }
        return nextDelivery()
    }
}

/// The subscription behind every merge: any number of upstreams, one downstream, its `_MergeState`
/// under one inline `Lock` that is never held while calling out. A value costs two uncontended
/// lock round trips and no allocation, and a synchronous upstream's drain loop runs straight
/// through.
@usableFromInline
final class _MergeSubscription<Downstream: Subscriber>: Subscription, Introspected {
    @usableFromInline typealias Value = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = _MergeState<Value, Failure>

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
        lifetime = Lifetime { unsafeDowncast($0, to: _MergeSubscription.self).downstream.release() }
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
        let more = downstream.with { $0.receive(value) }
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
            perform(withState { $0.isRunning && !$0.delivering ? $0.finish() : .none })
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero(on: description)
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

    // MARK: Delivery

    /// Runs inside a `lifetime` call, by the caller holding the delivering turn, from its first
    /// step until it gives the turn back.
    @usableFromInline
    func drain(_ first: State.Delivery) {
        var step = first
        while true {
            switch step {
            case .value(let value, let lane):
                let more = downstream.with { $0.receive(value) }
                step = withState { $0.delivered(more, lane: lane) }
            case .askForOne(let upstream):
                upstream.request(.max(1))
                step = withState { $0.nextDelivery() }
            case .completion(let completion):
                complete(completion)
                return
            case .idle:
                return
            }
        }
    }
}
