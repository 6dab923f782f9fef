// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The state of a `zip` or `combineLatest` subscription, as a machine whose events return what to do;
// the subscription itself is in FanInSubscription.swift, the slots and lanes in FanIn.swift.

/// A fan-in's state, kept under its subscription's lock. Each event changes it and returns what the
/// subscription does once it has unlocked; nothing here calls out.
///
/// Demand from downstream goes to every upstream as it comes, and is counted here so that no more
/// tuples go out than were asked for (zip keeps the rest queued; combineLatest keeps the latest
/// tuple for the next request). While one upstream's value is being delivered (that upstream is
/// the `driver`), further demand for it is handed back from its `receive` instead of requested, as
/// Combine does.
@usableFromInline
struct FanInState<Slots: FanInSlots, Failure: Error> {
    @usableFromInline typealias Step = DeliveryStep<Slots.Output, Failure, Never>

    @inlinable static var allLanes: UInt8 { UInt8(1 << Slots.count) - 1 }

    @usableFromInline var slots = Slots()
    @usableFromInline var upstreams = FanInUpstreams()
    /// A bit per lane that has received a subscription (a second one is cancelled).
    @usableFromInline var attached: UInt8 = 0
    /// A bit per lane that has completed.
    @usableFromInline var finished: UInt8 = 0
    /// Tuples downstream asked for and has not received; `UInt.max` is unlimited.
    @usableFromInline var demand: UInt = 0
    /// Everything asked of each upstream so far, for an upstream whose subscription comes late.
    @usableFromInline var forwarded = Subscribers.Demand.none
    /// The lane whose value the turn's holder delivers (-1: none), and the demand to return to it.
    @usableFromInline var driver = -1
    @usableFromInline var owed = Subscribers.Demand.none
    /// combineLatest: tuples made and not yet delivered. Beyond the demand only the newest is kept.
    @usableFromInline var tuples = RingBuffer<Slots.Output>()
    @usableFromInline var turn = DeliveryTurn<Failure>()
    @usableFromInline var isTerminated = false
    /// The upstreams to cancel, from the event that ended the stream until the caller that delivers
    /// its completion cancels them (a step carries no existential: it is copied at every delivery).
    @usableFromInline var ending = FanInUpstreams()

    /// The turn starts out taken: nothing goes downstream before its `receive(subscription:)` returns.
    @inlinable
    init() {
        turn.take()
    }

    @inlinable
    var hasTuple: Bool { Slots.pairs ? slots.unfilled == 0 : !tuples.isEmpty }

    /// zip: an upstream has finished with nothing left to pair. combineLatest: all have finished.
    @inlinable
    var isFinished: Bool { Slots.pairs ? finished & slots.unfilled != 0 : finished == Self.allLanes }

    // MARK: Upstreams

    /// An upstream's subscription: what to ask of it, or nil to cancel it.
    @inlinable
    mutating func attach(_ subscription: any Subscription, lane: Int) -> Subscribers.Demand? {
        let bit = UInt8(1) << lane
        guard !isTerminated, attached & bit == 0 else { return nil }
        attached |= bit
        upstreams[lane] = subscription
        return forwarded
    }

    /// A value from the upstream of `Lane`: the tuple to deliver if the caller took the turn.
    @inlinable @inline(__always)
    mutating func received<Lane: FanInLane>(_ value: Lane.Value, in _: Lane.Type) -> Slots.Output?
    where Lane.Slots == Slots {
        guard !isTerminated, finished & (1 << Lane.index) == 0 else { return nil }
        Lane.put(value, into: &slots)
        if turn.isTaken {
            // The holder picks up what this value makes before it gives the turn back.
            if !Slots.pairs { snapshot() }
            return nil
        }
        if !Slots.pairs {
            // combineLatest's common case, a tuple made with demand for it and none waiting, goes
            // straight out: what `snapshot()` then `takeTuple()` would do, without the ring.
            if slots.unfilled == 0 && demand != 0 && tuples.isEmpty {
                turn.take()
                driver = Lane.index
                if demand != .max { demand -= 1 }
                return slots.take()
            }
            snapshot()
        }
        guard demand != 0, hasTuple else { return nil }
        turn.take()
        driver = Lane.index
        return takeTuple()
    }

    /// An upstream completed: its subscription, to let go of outside the lock, and the first step
    /// if the caller took the turn.
    @inlinable
    mutating func completed(_ completion: Subscribers.Completion<Failure>, lane: Int) -> (
        released: (any Subscription)?, first: Step?
    ) {
        let bit = UInt8(1) << lane
        guard !isTerminated, finished & bit == 0 else { return (nil, nil) }
        finished |= bit
        if case .failure(let error) = completion {
            // The failed upstream keeps its subscription: Combine cancels it along with the others.
            // While the turn is taken the stream runs on (upstreams still attach, send and are
            // asked) until the holder delivers the failure.
            guard let failure = turn.fail(error) else { return (nil, nil) }
            ending = terminate()
            return (nil, .completion(failure))
        }
        let released = upstreams[lane]
        upstreams[lane] = nil
        guard turn.take() else { return (released, nil) }
        return (released, nextDelivery())
    }

    // MARK: Downstream

    /// Downstream asked for more: the upstreams to pass it to, and the first step if the caller
    /// took the turn.
    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> (others: FanInUpstreams, first: Step?) {
        guard !isTerminated else { return (FanInUpstreams(), nil) }
        let others = add(more)
        guard hasTuple, turn.take() else { return (others, nil) }
        return (others, .value(takeTuple()))
    }

    /// Downstream cancelled: the upstreams to cancel, or nil if the stream had ended. A failure that
    /// waits for the turn's holder is forgotten.
    @inlinable
    mutating func cancelled() -> FanInUpstreams? {
        guard !isTerminated else { return nil }
        _ = turn.cancel()
        return terminate()
    }

    // MARK: Delivery

    /// After a delivery (and the demand downstream answered, counted with `add`): the holder's next
    /// step, and, once the turn ends, the demand to return to the upstream whose value started it.
    /// Until then that upstream's `receive` is still running, so demand for it is owed, not asked.
    @inlinable @inline(__always)
    mutating func settle() -> (step: Step, answer: Subscribers.Demand) {
        let step = nextDelivery()
        if case .value = step { return (step, .none) }
        let answer = owed
        owed = .none
        driver = -1
        return (step, answer)
    }

    /// The holder's next step: the failure that waits, else the next tuple if downstream wants one,
    /// else the end if it is due; otherwise the turn is given back.
    @inlinable @inline(__always)
    mutating func nextDelivery() -> Step {
        if let failure = turn.owedFailure() {
            ending = terminate()
            return .completion(.failure(failure))
        }
        if isTerminated {
            turn.giveBack()
            return .ended
        }
        if demand != 0, hasTuple { return .value(takeTuple()) }
        turn.giveBack()
        guard isFinished else { return .idle }
        ending = terminate()
        return .completion(.finished)
    }

    // MARK: Helpers

    @inlinable
    mutating func takeTuple() -> Slots.Output {
        if demand != .max { demand -= 1 }
        return Slots.pairs ? slots.take() : tuples.removeFirst()
    }

    /// combineLatest, after a value arrived: the tuple it makes, if every upstream has a value. One
    /// beyond the demand replaces the previous one beyond it.
    @inlinable
    mutating func snapshot() {
        guard slots.unfilled == 0 else { return }
        if UInt(tuples.count) > demand {
            tuples.replaceLast(with: slots.take())
        } else {
            tuples.append(slots.take())
        }
    }

    /// Counts more downstream demand; returns the upstreams to request it from (all but the driver,
    /// which gets it back from its `receive`).
    @inlinable
    mutating func add(_ more: Subscribers.Demand) -> FanInUpstreams {
        demand = more.adding(to: demand)
        forwarded += more
        if driver >= 0 { owed += more }
        return upstreams.except(driver)
    }

    /// Ends the stream and returns the upstreams still running (and a failed one), to cancel.
    @inlinable
    mutating func terminate() -> FanInUpstreams {
        isTerminated = true
        let running = upstreams
        upstreams = FanInUpstreams()
        return running
    }

    /// The upstreams the ending event left to cancel.
    @inlinable
    mutating func takeEnding() -> FanInUpstreams {
        let running = ending
        ending = FanInUpstreams()
        return running
    }

    /// After the end: the stored values, to let go of outside the lock (their deinit may run anything).
    @inlinable
    mutating func takeValues() -> (Slots, RingBuffer<Slots.Output>) {
        let values = (slots, tuples)
        slots = Slots()
        tuples = RingBuffer()
        return values
    }
}
