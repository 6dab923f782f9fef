// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The merge's state, as a machine whose events return actions (see `MachineAction`), and its
// lanes; the subscription that keeps it is in MergeSubscription.swift.

/// One upstream's place in the merge: its subscription while live, and the values of it that wait
/// for demand or for another thread's delivery to end. The queue keeps its storage when it empties,
/// so a steady stream of waiting values allocates nothing.
@frozen @usableFromInline
struct MergeLane<Value> {
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
/// delivering `turn`, calls downstream, and before giving the turn back delivers whatever arrived
/// meanwhile (from other threads, or re-entrantly) and was queued on its lane. `owed` is
/// downstream's outstanding demand as a count, `UInt.max` meaning unlimited.
@usableFromInline
struct MergeState<Value, Failure: Error> {
    @usableFromInline enum Phase {
        case running
        /// Every upstream finished: `.finished` goes out after the last waiting value.
        case finishing
        /// Ended (an upstream's failure may still wait in `turn`).
        case done
    }

    @usableFromInline typealias Action = MachineAction<Failure>
    /// The delivering caller's next step; its callout asks an upstream for one more value.
    @usableFromInline typealias Step = DeliveryStep<Value, Failure, any Subscription>

    @usableFromInline var phase = Phase.running
    @usableFromInline var lanes: ContiguousArray<MergeLane<Value>>
    @usableFromInline var owed: UInt = 0
    @usableFromInline var turn = DeliveryTurn<Failure>()
    /// The lane of the waiting value the turn's holder is delivering.
    @usableFromInline var deliveringLane = 0
    /// Values waiting across all lanes: the common case (none) is one comparison.
    @usableFromInline var waitingCount = 0
    @usableFromInline var unfinished: Int

    @inlinable
    init(upstreamCount: Int) {
        lanes = ContiguousArray(repeating: MergeLane(), count: upstreamCount)
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
        if turn.isTaken || owed == 0 {
            lanes[index].queue.append(value)
            waitingCount += 1
            return .queued
        }
        turn.take()
        if owed != .max { owed -= 1 }
        return .deliver
    }

    /// Downstream answered `more` to a value the caller delivered from upstream `index`: the
    /// demand to return to that upstream, and the caller's next step.
    @inlinable
    mutating func offerDelivered(_ more: Subscribers.Demand, from index: Int) -> (
        answer: Subscribers.Demand, next: Step
    ) {
        if more != .none { owed = more.adding(to: owed) }
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
            phase = .done
            return .end(cancelling: live, turn.fail(error))
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
        guard turn.take() else { return .none }
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
        case .done: return ([], false)
        }
        guard !isUnlimited else { return ([], false) }
        owed = demand.adding(to: owed)
        var everything: ContiguousArray<any Subscription> = []
        if isUnlimited {
            // From now on every upstream is asked for everything; until now each had one value
            // outstanding or waiting.
            for lane in lanes where lane.isLive { everything.append(lane.subscription!) }
        }
        if turn.isTaken || (waitingCount == 0 && isRunning) { return (everything, false) }
        // The caller holds the turn while asking: whatever upstream sends from inside the
        // request queues up behind the values that already wait.
        turn.take()
        return (everything, true)
    }

    /// Downstream cancelled: the upstreams to cancel, or nil if the stream had ended and its end
    /// had reached downstream.
    @inlinable
    mutating func cancelled() -> ContiguousArray<any Subscription>? {
        guard !isDone else { return turn.cancel() ? [] : nil }
        phase = .done
        return cutLanes()
    }

    /// Ends every lane, dropping waiting values; returns the subscriptions to cancel.
    @inlinable
    mutating func cutLanes() -> ContiguousArray<any Subscription> {
        var live: ContiguousArray<any Subscription> = []
        for index in lanes.indices {
            if lanes[index].isLive, let upstream = lanes[index].subscription { live.append(upstream) }
            lanes[index] = MergeLane()
            lanes[index].hasEnded = true
        }
        waitingCount = 0
        return live
    }

    // MARK: Delivery

    /// The delivering caller's next step: waiting values, lowest lane first, while there is
    /// demand, then a completion that waits for them.
    @inlinable
    mutating func nextDelivery() -> Step {
        if let error = turn.owedFailure() { return .completion(.failure(error)) }
        switch phase {
        case .done:
            turn.giveBack()
            return .ended
        case .running, .finishing:
            break
        }
        if waitingCount > 0 && owed > 0 {
            var index = 0
            while lanes[index].queue.isEmpty { index += 1 }
            let value = lanes[index].queue.removeFirst()
            waitingCount -= 1
            if owed != .max { owed -= 1 }
            deliveringLane = index
            return .value(value)
        }
        if case .finishing = phase, waitingCount == 0 {
            phase = .done
            turn.giveBack()
            return .completion(.finished)
        }
        turn.giveBack()
        return .idle
    }

    /// Downstream answered `more` to the waiting value the caller delivered.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Step {
        if more != .none { owed = more.adding(to: owed) }
        // The value was answered with `.none` when it came: its upstream may send the next.
        let index = deliveringLane
        if isRunning, !isUnlimited, lanes[index].isLive, let upstream = lanes[index].subscription {
            return .callout(upstream)
        }
        return nextDelivery()
    }
}
