// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// flatMap's unfused subscription keeps its state here, as a machine whose events return actions
// (see `MachineAction`); the subscription itself is in FlatMap.swift.

/// `flatMap`'s state, kept under its subscription's lock. Each event changes it and returns what
/// the subscription does once it has unlocked; nothing here calls out.
///
/// The caller that takes the delivering `turn` is the only caller of downstream until a
/// `nextDelivery` step gives it back; values that arrive meanwhile, or while downstream has no
/// demand, wait in `queue` and that caller delivers them, as well as a failure that arrived
/// meanwhile (it waits in the turn).
@usableFromInline
struct FlatMapState<Value, Failure: Error>: PublishingState {
    /// The number of a one-shot inner publisher (`Just`, `Fail`, `Empty`, ... and stages over
    /// them), taken at once from its cursor instead of subscribed to: its value and completion are
    /// the same two events as a subscribed publisher's (`innerValue`, `innerEnded`), but it has no
    /// slot in `inners`. One that never ends (`Empty(completeImmediately: false)`) is opened
    /// (`openInner`) and never subscribed to.
    @usableFromInline static var unsubscribed: Int { -1 }

    @usableFromInline enum Phase {
        case awaitingUpstream
        case running
        case upstreamFinished
        case terminated
    }

    @usableFromInline typealias Action = MachineAction<Failure>
    /// The delivering caller's next step; its callout asks an inner publisher for one more value.
    @usableFromInline typealias Step = DeliveryStep<Value, Failure, any Subscription>

    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline var phase = Phase.awaitingUpstream
    @usableFromInline var upstream: (any Subscription)?
    /// The inner publishers that have not completed: their subscription, or nil until it arrives.
    @usableFromInline var inners: [Int: (any Subscription)?] = [:]
    @usableFromInline var nextIndex = 0
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var queue = RingBuffer<(index: Int, value: Value)>()
    @usableFromInline var turn = DeliveryTurn<Failure>()
    /// The turn was taken by downstream's request: each inner publisher whose value it delivers
    /// under a finite demand is asked for one more (`innerToAsk`, after the value).
    @usableFromInline var asksInners = false
    @usableFromInline var innerToAsk: (any Subscription)?
    /// Whether `innerToAsk` holds one: looked at first, so that a value path with no inner to ask
    /// copies no `(any Subscription)?` (through value witnesses, even a nil one).
    @usableFromInline var hasInnerToAsk = false

    @inlinable init(maxPublishers: Subscribers.Demand) { self.maxPublishers = maxPublishers }

    @inlinable var isTerminated: Bool { phase == .terminated }

    /// Whether the stream has ended: an upstream value that comes after is dropped without the lock.
    @inlinable var published: Bool { isTerminated }

    @inlinable var isExhausted: Bool {
        phase == .upstreamFinished && inners.isEmpty && queue.isEmpty
    }

    /// Upstream, while it may still be asked for more.
    @inlinable var liveUpstream: (any Subscription)? { phase == .running ? upstream : nil }

    // MARK: Upstream

    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Action {
        guard phase == .awaitingUpstream else { return .cancel(subscription) }
        phase = .running
        upstream = subscription
        // Combine asks for `.none` here; a request for nothing is an API violation in Sluice.
        return maxPublishers == .none ? .none : .request(subscription, maxPublishers)
    }

    /// A new inner publisher: its number, or nil if the stream no longer runs.
    @inlinable
    mutating func openInner() -> Int? {
        guard phase == .running else { return nil }
        let index = nextIndex
        nextIndex += 1
        inners[index] = .some(nil)
        return index
    }

    @inlinable
    mutating func upstreamEnded(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard phase == .awaitingUpstream || phase == .running else { return .none }
        switch completion {
        case .finished:
            phase = .upstreamFinished
            upstream = nil
            guard !turn.isTaken, isExhausted else { return .none }
            phase = .terminated
            return .end(cancelling: [], .finished)
        case .failure(let error):
            return fail(error)
        }
    }

    // MARK: Inner publishers

    @inlinable
    mutating func innerArrived(_ subscription: any Subscription, index: Int) -> Action {
        guard phase != .terminated, let slot = inners[index], slot == nil else { return .cancel(subscription) }
        inners[index] = subscription
        return .request(subscription, demand == .unlimited ? .unlimited : .max(1))
    }

    /// Whether the inner publisher `index` may still send or end: one taken at once while upstream
    /// runs (it came from upstream's value), a subscribed one until it has completed.
    @inlinable
    func isLive(_ index: Int) -> Bool {
        index == Self.unsubscribed ? phase == .running : phase != .terminated && inners[index] != nil
    }

    /// An inner publisher's value: whether the caller delivers it now (it is then the delivering
    /// caller) and whether demand was unlimited; otherwise it waits or is dropped. A subscribed
    /// publisher's counts once its subscription has arrived.
    @inlinable
    mutating func innerValue(_ value: Value, index: Int) -> (deliverNow: Bool, wasUnlimited: Bool) {
        guard isLive(index), index == Self.unsubscribed || inners[index]! != nil else { return (false, false) }
        guard !turn.isTaken, demand != .none else {
            // Its publisher is asked for the next value when this one is delivered.
            queue.append((index, value))
            return (false, false)
        }
        turn.take()
        let isUnlimited = demand == .unlimited
        if !isUnlimited { demand -= 1 }
        return (true, isUnlimited)
    }

    /// An inner publisher completed.
    @inlinable
    mutating func innerEnded(_ completion: Subscribers.Completion<Failure>, index: Int) -> Action {
        guard isLive(index) else { return .none }
        switch completion {
        case .finished:
            return innerFinished(index: index)
        case .failure(let error):
            if index != Self.unsubscribed { inners[index] = nil }
            // As in Combine, the other inner publishers are cancelled, upstream is not.
            return fail(error)
        }
    }

    /// Frees the inner publisher's slot: upstream may send one more element.
    @inlinable
    mutating func innerFinished(index: Int) -> Action {
        if index != Self.unsubscribed { inners[index] = nil }
        if !turn.isTaken && isExhausted {
            phase = .terminated
            return .end(cancelling: [], .finished)
        }
        guard maxPublishers != .unlimited, let upstream = liveUpstream else { return .none }
        return .request(upstream, .max(1))
    }

    // MARK: Downstream

    /// Downstream's request: the inner publishers to ask for `.unlimited` now (demand became
    /// unlimited), and whether the caller becomes the delivering one (values wait).
    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> (
        toUnlimit: ContiguousArray<any Subscription>, delivers: Bool
    ) {
        guard phase != .terminated else { return ([], false) }
        let becomesUnlimited = more == .unlimited && demand != .unlimited
        demand += more
        let toUnlimit = becomesUnlimited ? subscribedInners() : []
        guard !turn.isTaken, !queue.isEmpty else { return (toUnlimit, false) }
        turn.take()
        // A request for a number of values asks each delivered value's publisher for one more;
        // an unlimited one has just asked them for everything.
        asksInners = more != .unlimited
        return (toUnlimit, true)
    }

    /// Downstream cancelled: upstream and the inner subscriptions to cancel, or nil if the stream
    /// had ended and its end had reached downstream.
    @inlinable
    mutating func cancelled() -> (upstream: (any Subscription)?, inners: ContiguousArray<any Subscription>)? {
        guard phase != .terminated else { return turn.cancel() ? (nil, []) : nil }
        let toCancel = (upstream, subscribedInners())
        phase = .terminated
        upstream = nil
        inners = [:]
        queue.removeAll()
        return toCancel
    }

    /// The delivering caller's next step, after downstream answered `more` to the last value:
    /// asks that value's inner publisher for one more if the turn does so, delivers queued values
    /// while there is demand, then a failure that arrived meanwhile or the final `.finished`.
    @inlinable
    mutating func nextDelivery(adding more: Subscribers.Demand) -> Step {
        if more != .none { demand += more }
        if hasInnerToAsk, let inner = innerToAsk.take() {
            hasInnerToAsk = false
            return .callout(inner)
        }
        if let failure = turn.owedFailure() {
            asksInners = false
            return .completion(.failure(failure))
        }
        if phase == .terminated {
            stopDelivering()
            return .ended
        }
        if !queue.isEmpty && demand != .none {
            let (index, value) = queue.removeFirst()
            if demand != .unlimited { demand -= 1 }
            // As in Combine, also when a value's returned demand made the demand unlimited: its
            // publisher was asked for one value, and would wait for the next request forever.
            if asksInners, let slot = inners[index], let inner = slot {
                innerToAsk = inner
                hasInnerToAsk = true
            }
            return .value(value)
        }
        if isExhausted {
            phase = .terminated
            stopDelivering()
            return .completion(.finished)
        }
        stopDelivering()
        return .idle
    }

    /// The delivering caller gives the turn back (also when the stream's lifetime ended under it).
    @inlinable
    mutating func stopDelivering() {
        turn.giveBack()
        asksInners = false
        if hasInnerToAsk {
            innerToAsk = nil
            hasInnerToAsk = false
        }
    }

    // MARK: Endings

    /// The inner subscriptions that have arrived, oldest first.
    @inlinable
    func subscribedInners() -> ContiguousArray<any Subscription> {
        ContiguousArray(inners.sorted { $0.key < $1.key }.compactMap { $0.value })
    }

    /// Ends the stream with a failure after cancelling the inner publishers still running; the
    /// failure waits for the delivering caller if there is one.
    @inlinable
    mutating func fail(_ error: Failure) -> Action {
        let toCancel = subscribedInners()
        phase = .terminated
        upstream = nil
        inners = [:]
        queue.removeAll()
        return .end(cancelling: toCancel, turn.fail(error))
    }
}
