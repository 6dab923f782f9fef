// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// switchToLatest's unfused subscription keeps its state here, as a machine whose events return
// actions (see `MachineAction`); the subscription itself is in SwitchToLatest.swift.

/// `switchToLatest`'s state, kept under its subscription's lock. Each event changes it and returns
/// what the subscription does once it has unlocked; nothing here calls out.
///
/// The caller that takes the delivering `turn` is the only caller of downstream until a
/// `nextDelivery` step gives it back: values accepted meanwhile wait in `queue`, a one-shot
/// inner publisher's cursor waits in `parked`, and demand downstream returns for a value whose
/// publisher cannot be answered (it was replaced, or never subscribed) is owed to the latest
/// subscribed one.
@usableFromInline
struct SwitchToLatestState<P: Publisher>: PublishingState {
    @usableFromInline typealias Value = P.Output
    @usableFromInline typealias Failure = P.Failure

    @usableFromInline enum Phase {
        case awaitingUpstream
        case running
        case upstreamFinished
        case terminated
    }

    /// The latest inner publisher. No case carries a payload, so that looking at it or changing it
    /// copies no existential (through value witnesses, hundreds of instructions per value): its
    /// subscription is kept apart, in `innerSubscription`.
    @usableFromInline enum Inner {
        case none
        /// Subscribed to, its subscription not yet arrived; also after upstream failed: Combine
        /// still asks the late subscription for the demand.
        case awaiting
        /// Its subscription (`innerSubscription`) has arrived.
        case subscribed
        /// A one-shot inner publisher's cursor (`parked`), waiting for demand.
        case parked
        /// An `Empty` that never completes.
        case unending
    }

    /// How a new inner publisher is taken.
    @usableFromInline enum Arrival {
        /// A one-shot publisher's cursor, and whether it has ended already.
        case oneShot(P._Cursor, isExhausted: Bool)
        /// A one-shot publisher that never ends (`Empty(completeImmediately: false)`).
        case unending
        case subscription
    }

    /// What the subscription does after a new inner publisher arrived, once it has cancelled the
    /// previous one.
    @usableFromInline enum Switch {
        case none
        /// The one-shot publisher has ended: its completion, if a failure, fails the stream.
        case endedAtOnce(generation: UInt)
        /// The caller pulls the one-shot publisher's cursor now, as its subscription would on the
        /// demand there is: it holds the turn.
        case pull(generation: UInt)
        case subscribe(generation: UInt)
    }

    @usableFromInline typealias Action = MachineAction<Failure>

    /// What the delivering caller does outside the lock between values.
    @usableFromInline enum Callout {
        /// Passes owed demand on to the latest inner publisher.
        case request(any Subscription, Subscribers.Demand)
        /// Pulls the one-shot cursor of this generation (`pulled`): what its subscription would do.
        case pull(generation: UInt)
    }

    /// The delivering caller's next step.
    @usableFromInline typealias Step = DeliveryStep<Value, Failure, Callout>

    @usableFromInline var phase = Phase.awaitingUpstream
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var inner = Inner.none
    /// The latest inner publisher's subscription while `inner` is `subscribed`.
    @usableFromInline var innerSubscription: (any Subscription)?
    /// The subscription of the inner publisher that `switchTo` replaced, set aside for its caller
    /// to cancel (`takeReplaced`): `switchTo` then returns only payload-free values, so that
    /// switching from one one-shot publisher to the next copies no existential.
    @usableFromInline var replaced: (any Subscription)?
    /// The cursor of a `parked` inner publisher. Kept apart from `Inner`, so that `Inner` has no
    /// generic payload: copying it then costs no value-witness calls.
    @usableFromInline var parked: P._Cursor?
    /// The parked cursor the delivering caller pulls next: moved here by `nextDelivery`, taken by
    /// that caller (`takePulled`). Not in the callout, for the same reason.
    @usableFromInline var pulled: P._Cursor?
    @usableFromInline var generation: UInt = 0
    /// Requested by downstream and not yet delivered (queued values are already counted).
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var owed = Subscribers.Demand.none
    @usableFromInline var queue = RingBuffer<Value>()
    @usableFromInline var turn = DeliveryTurn<Failure>()

    @inlinable init() {}

    @inlinable var isTerminated: Bool { phase == .terminated }

    /// Whether the stream has ended: an upstream value that comes after is dropped without the lock.
    @inlinable var published: Bool { isTerminated }

    @inlinable var isExhausted: Bool {
        guard phase == .upstreamFinished, case .none = inner else { return false }
        return queue.isEmpty
    }

    /// The latest inner publisher is subscribed to and has not completed.
    @inlinable var isInnerLive: Bool {
        switch inner {
        case .awaiting, .subscribed: true
        case .none, .parked, .unending: false
        }
    }

    /// The latest inner publisher's subscription, if it has come and the publisher is live.
    @inlinable var subscribedInner: (any Subscription)? {
        guard case .subscribed = inner else { return nil }
        return innerSubscription
    }

    /// Ends the stream; returns the cursors the latest inner publisher held (parked, and about to
    /// be pulled).
    @inlinable @discardableResult
    mutating func terminate(awaitingInner: Bool = false) -> (P._Cursor?, P._Cursor?) {
        let cursors = (parked.take(), pulled.take())
        phase = .terminated
        upstream = nil
        inner = awaitingInner ? .awaiting : .none
        innerSubscription = nil
        queue.removeAll()
        return cursors
    }

    // MARK: Upstream

    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Action {
        guard phase == .awaitingUpstream else { return .cancel(subscription) }
        phase = .running
        upstream = subscription
        return .request(subscription, .unlimited)
    }

    /// A new inner publisher replaces the latest: whether the previous one had a subscription
    /// (set aside in `replaced`, for the caller to cancel), and what to do then.
    @inlinable
    mutating func switchTo(_ arrival: Arrival) -> (replacesSubscription: Bool, then: Switch) {
        guard phase == .running else { return (false, .none) }
        let replacesSubscription = if case .subscribed = inner { true } else { false }
        if replacesSubscription { replaced = innerSubscription.take() }
        generation &+= 1
        parked = nil
        switch arrival {
        case .oneShot(_, isExhausted: true):
            // Nothing to wait for: it completes at once, as its subscription would.
            inner = .none
            return (replacesSubscription, .endedAtOnce(generation: generation))
        case .oneShot(let cursor, isExhausted: false):
            guard !turn.isTaken, demand != .none else {
                inner = .parked
                parked = cursor
                return (replacesSubscription, .none)
            }
            // The turn is free, so nothing waits in `queue`: the caller pulls the cursor it holds
            // at once, as `nextDelivery` would from `parked` (and, as it, forgets what was owed to
            // the replaced publisher: the next subscribed one is asked for all of `demand`).
            turn.take()
            owed = .none
            inner = .none
            return (replacesSubscription, .pull(generation: generation))
        case .unending:
            inner = .unending
            return (replacesSubscription, .none)
        case .subscription:
            inner = .awaiting
            return (replacesSubscription, .subscribe(generation: generation))
        }
    }

    /// The subscription `switchTo` set aside, to cancel.
    @inlinable mutating func takeReplaced() -> (any Subscription)? { replaced.take() }

    @inlinable
    mutating func upstreamEnded(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard phase == .awaitingUpstream || phase == .running else { return .none }
        switch completion {
        case .finished:
            phase = .upstreamFinished
            upstream = nil
            guard !turn.isTaken, isExhausted else { return .none }
            terminate()
            return .end(cancelling: [], .finished)
        case .failure(let error):
            let awaitingInner = if case .awaiting = inner { true } else { false }
            return fail(error, cancelling: subscribedInner, awaitingInner: awaitingInner)
        }
    }

    // MARK: The inner publishers

    @inlinable
    mutating func innerArrived(_ subscription: any Subscription, generation: UInt) -> Action {
        let ended = phase == .terminated
        guard generation == self.generation, case .awaiting = inner else {
            // A replaced publisher's subscription, or a second one, is cancelled; the latest
            // publisher completed: while the stream runs, Combine leaves it alone.
            let completed = if case .none = inner { true } else { false }
            return generation == self.generation && completed && !ended ? .none : .cancel(subscription)
        }
        // Upstream failed meanwhile: Combine asks for the demand and keeps nothing.
        if ended {
            inner = .none
        } else {
            inner = .subscribed
            innerSubscription = subscription
        }
        return demand == .none ? .none : .request(subscription, demand)
    }

    /// What becomes of an inner publisher's value.
    @usableFromInline enum InnerValue {
        /// A replaced or completed publisher's, or one after the end.
        case ignored
        /// Another caller delivers it.
        case queued
        /// The caller delivers it now (it is then the delivering caller).
        case deliver
        /// Beyond the demand the latest publisher was given: Combine traps.
        case beyondDemand
    }

    @inlinable
    mutating func innerValue(_ value: Value, generation: UInt) -> InnerValue {
        // The latest may send before its subscription arrives, but never beyond its demand.
        guard phase != .terminated, generation == self.generation, isInnerLive else { return .ignored }
        guard demand != .none else { return .beyondDemand }
        if demand != .unlimited { demand -= 1 }
        guard turn.take() else {
            queue.append(value)
            return .queued
        }
        return .deliver
    }

    /// Downstream's answer to a value of `generation` delivered by its publisher's caller: the
    /// demand to return to that publisher (only if it is still the latest; otherwise it is owed).
    @inlinable
    mutating func answered(_ more: Subscribers.Demand, generation: UInt) -> Subscribers.Demand {
        guard more != .none && phase != .terminated else { return .none }
        demand += more
        if generation == self.generation && isInnerLive { return more }
        owed += more
        return .none
    }

    @inlinable
    mutating func innerEnded(_ completion: Subscribers.Completion<Failure>, generation: UInt) -> Action {
        guard phase != .terminated, generation == self.generation, isInnerLive else { return .none }
        if case .awaiting = inner {
            trap(
                "API violation: SwitchToLatest's inner publisher completed before sending its subscription")
        }
        switch completion {
        case .finished:
            inner = .none
            innerSubscription = nil
            guard !turn.isTaken, isExhausted else { return .none }
            terminate()
            return .end(cancelling: [], .finished)
        case .failure(let error):
            return fail(error, cancelling: upstream)
        }
    }

    /// A one-shot inner publisher failed: upstream is cancelled and the stream fails.
    @inlinable
    mutating func oneShotFailed(_ error: Failure, generation: UInt) -> Action {
        guard phase != .terminated, generation == self.generation else { return .none }
        return fail(error, cancelling: upstream)
    }

    // MARK: Downstream

    /// What a request leads to.
    @usableFromInline enum Request {
        case none
        /// Passes it on to the latest inner publisher.
        case forward(any Subscription)
        /// The caller delivers (it is then the delivering caller): a one-shot cursor waits.
        case deliver
    }

    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> Request {
        guard phase != .terminated else { return .none }
        demand += more
        switch inner {
        case .subscribed: return .forward(innerSubscription.unsafelyUnwrapped)
        case .parked where !turn.isTaken:
            turn.take()
            return .deliver
        default: return .none
        }
    }

    /// Downstream cancelled: what to cancel, and the latest inner publisher's parked cursor (to let
    /// go of outside the lock: it holds the inner publisher's closures); nil if the stream had
    /// ended and its end had reached downstream.
    @inlinable
    mutating func cancelled() -> (
        upstream: (any Subscription)?, inner: (any Subscription)?, cursors: (P._Cursor?, P._Cursor?)
    )? {
        guard phase != .terminated else { return turn.cancel() ? (nil, nil, (nil, nil)) : nil }
        let upstream = upstream
        let inner = subscribedInner
        return (upstream, inner, terminate())
    }

    // MARK: Delivery

    /// The delivering caller's next step, after downstream answered `more` to the last value:
    /// passes owed demand on, delivers queued values, pulls a parked cursor while there is
    /// demand, then delivers a failure that arrived meanwhile or the final `.finished`.
    @inlinable
    mutating func nextDelivery(adding more: Subscribers.Demand) -> Step {
        received(more)
        if let failure = turn.owedFailure() { return .completion(.failure(failure)) }
        if phase == .terminated {
            turn.giveBack()
            return .ended
        }
        if owed != .none {
            let more = owed
            owed = .none
            // Without a subscribed inner publisher, the next one is asked for all of `demand`,
            // this included, when it is subscribed.
            if let current = subscribedInner { return .callout(.request(current, more)) }
        }
        if !queue.isEmpty { return .value(queue.removeFirst()) }
        if case .parked = inner, demand != .none, let cursor = parked.take() {
            // Pulling it is what its subscription would do on this request; it ends it.
            inner = .none
            pulled = cursor
            return .callout(.pull(generation: generation))
        }
        if isExhausted {
            terminate()
            turn.giveBack()
            return .completion(.finished)
        }
        turn.giveBack()
        return .idle
    }

    /// Downstream's answer to a value the delivering caller delivered: owed to the latest inner
    /// publisher.
    @inlinable
    mutating func received(_ more: Subscribers.Demand) {
        guard more != .none && phase != .terminated else { return }
        demand += more
        owed += more
    }

    /// The cursor the delivering caller pulls now; nil if the stream ended meanwhile.
    @inlinable mutating func takePulled() -> P._Cursor? { pulled.take() }

    /// A pulled cursor's value: true if the caller delivers it (the stream still follows it).
    @inlinable
    mutating func takesPulledValue(generation: UInt) -> Bool {
        guard phase != .terminated, generation == self.generation else { return false }
        if demand != .unlimited { demand -= 1 }
        return true
    }

    /// The delivering caller gives up delivering (the stream's lifetime ended under it).
    @inlinable mutating func stopDelivering() { turn.giveBack() }

    // MARK: Endings

    /// Fails the stream after cancelling `other`, the side that did not fail; the failure waits
    /// for the delivering caller if there is one.
    @inlinable
    mutating func fail(_ error: Failure, cancelling other: (any Subscription)?, awaitingInner: Bool = false) -> Action {
        terminate(awaitingInner: awaitingInner)
        let toCancel: ContiguousArray<any Subscription> = other.map { [$0] } ?? []
        return .end(cancelling: toCancel, turn.fail(error))
    }
}
