// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// `FanInSubscription`, the subscription of a `zip` or `combineLatest`, and `FanInSide`, its subscriber to
// each upstream. Their slots, lanes and steps, and how they fit together: FanIn.swift.

/// The subscription of a `zip` or `combineLatest`, over the slots of its arity and kind.
///
/// Demand from downstream goes to every upstream as it comes, and is counted here so that no more
/// tuples go out than were asked for (zip keeps the rest queued; combineLatest keeps the latest
/// tuple for the next request). While one upstream's value is being delivered, further demand for
/// that upstream is handed back from its `receive` instead of requested, as Combine does.
@usableFromInline
final class FanInSubscription<Slots: FanInSlots, Downstream: Subscriber>: Subscription, Introspected
where Downstream.Input == Slots.Output {
    @usableFromInline enum Phase {
        case idle
        /// One thread delivers; the others store their values and leave.
        case emitting
        case terminated
    }

    @inlinable static var allLanes: UInt8 { UInt8(1 << Slots.count) - 1 }

    /// Used only inside calls through `lifetime` (`start` and `run`).
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Starts out emitting: nothing goes downstream before its `receive(subscription:)` returns.
    @exclusivity(unchecked) @usableFromInline var phase = Phase.emitting
    @exclusivity(unchecked) @usableFromInline var slots = Slots()
    @exclusivity(unchecked) @usableFromInline var upstreams = FanInUpstreams()
    /// A bit per lane that has received a subscription (a second one is cancelled).
    @exclusivity(unchecked) @usableFromInline var attached: UInt8 = 0
    /// A bit per lane that has completed.
    @exclusivity(unchecked) @usableFromInline var finished: UInt8 = 0
    /// Tuples downstream asked for and has not received; `UInt.max` is unlimited.
    @exclusivity(unchecked) @usableFromInline var demand: UInt = 0
    /// Everything asked of each upstream so far, for an upstream whose subscription comes late.
    @exclusivity(unchecked) @usableFromInline var forwarded = Subscribers.Demand.none
    /// The lane whose value started the delivery in progress (-1: a request did), and the demand
    /// to return to it.
    @exclusivity(unchecked) @usableFromInline var driver = -1
    @exclusivity(unchecked) @usableFromInline var owed = Subscribers.Demand.none
    /// combineLatest: tuples made and not yet delivered. Beyond the demand only the newest is kept.
    @exclusivity(unchecked) @usableFromInline var tuples = RingBuffer<Downstream.Input>()
    /// A failure that arrived while a delivery was in progress.
    @exclusivity(unchecked) @usableFromInline var pendingFailure: Downstream.Failure?
    /// The upstreams to cancel, from the step that ended the stream until its thread cancels them.
    @exclusivity(unchecked) @usableFromInline var ending = FanInUpstreams()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: FanInSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { Slots.pairs ? "Zip" : "CombineLatest" }

    /// Gives downstream its subscription once every upstream is subscribed, then delivers whatever
    /// arrived meanwhile.
    @inlinable
    func start() {
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        lock.lock()
        let step = nextStep()
        lock.unlock()
        _ = run(step)
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
        let bit = UInt8(1) << lane
        lock.lock()
        guard phase != .terminated, attached & bit == 0 else {
            lock.unlock()
            subscription.cancel()
            return
        }
        attached |= bit
        upstreams[lane] = subscription
        let ask = forwarded
        lock.unlock()
        if ask != .none { subscription.request(ask) }
    }

    @inlinable
    func receive<Lane: FanInLane>(_ value: Lane.Value, in _: Lane.Type) -> Subscribers.Demand
    where Lane.Slots == Slots {
        lock.lock()
        guard phase == .idle, finished & (1 << Lane.index) == 0 else {
            store(value, in: Lane.self)
            lock.unlock()
            return .none
        }
        Lane.put(value, into: &slots)
        if !Slots.pairs {
            // combineLatest's common case, a tuple made with demand for it and none waiting, goes
            // straight out: what `snapshot()` then `takeTuple()` would do, without the ring.
            if slots.unfilled == 0 && demand != 0 && tuples.isEmpty {
                phase = .emitting
                driver = Lane.index
                if demand != .max { demand -= 1 }
                let tuple = slots.take()
                lock.unlock()
                return run(.deliver(tuple))
            }
            snapshot()
        }
        guard demand != 0, hasTuple else {
            lock.unlock()
            return .none
        }
        phase = .emitting
        driver = Lane.index
        let tuple = takeTuple()
        lock.unlock()
        return run(.deliver(tuple))
    }

    /// A value that arrived while another delivery runs (or after the end), with the lock held.
    @inlinable
    func store<Lane: FanInLane>(_ value: Lane.Value, in _: Lane.Type) where Lane.Slots == Slots {
        guard phase == .emitting, finished & (1 << Lane.index) == 0 else { return }
        Lane.put(value, into: &slots)
        if !Slots.pairs { snapshot() }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, lane: Int) {
        let bit = UInt8(1) << lane
        lock.lock()
        guard phase != .terminated, finished & bit == 0 else {
            lock.unlock()
            return
        }
        finished |= bit
        if case .failure(let error) = completion {
            // The failed upstream keeps its subscription: Combine cancels it along with the others.
            if pendingFailure == nil { pendingFailure = error }
        } else {
            let released = upstreams[lane]
            upstreams[lane] = nil
            guard phase == .idle else {
                lock.unlock()
                withExtendedLifetime(released) {}
                return
            }
        }
        guard phase == .idle else {
            lock.unlock()
            return
        }
        phase = .emitting
        driver = -1
        let step = nextStep()
        lock.unlock()
        _ = run(step)
    }

    // MARK: Downstream

    @inlinable
    func request(_ more: Subscribers.Demand) {
        more._assertNonZero(on: description)
        lock.lock()
        guard phase != .terminated else {
            lock.unlock()
            return
        }
        let others = add(more)
        var step = FanInStep<Downstream.Input, Downstream.Failure>.done(owed: .none)
        if phase == .idle, hasTuple {
            phase = .emitting
            driver = -1
            step = .deliver(takeTuple())
        }
        lock.unlock()
        others.request(more)
        _ = run(step)
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase != .terminated else {
            lock.unlock()
            return
        }
        let running = terminate()
        lock.unlock()
        releaseValues()
        running.cancel()
        lifetime.end(self)
    }

    // MARK: Delivery

    /// Does `step` and what follows it, for the thread that set `emitting`; returns the demand owed
    /// to the upstream whose value started the delivery.
    @inlinable
    func run(_ first: FanInStep<Downstream.Input, Downstream.Failure>) -> Subscribers.Demand {
        lifetime.call(self) { runLive(first) } ?? .none
    }

    /// `run`, inside a `lifetime` call.
    @inlinable
    func runLive(_ first: FanInStep<Downstream.Input, Downstream.Failure>) -> Subscribers.Demand {
        var step = first
        while true {
            switch step {
            case .deliver(let tuple):
                let more = downstream.with { $0.receive(tuple) }
                lock.lock()
                // No demand returned (the common case): no upstream to ask, and no
                // `(any Subscription)?` to copy.
                guard more != .none else {
                    step = nextStep()
                    lock.unlock()
                    continue
                }
                var others = FanInUpstreams()
                if phase == .emitting { others = add(more) }
                step = nextStep()
                lock.unlock()
                if !step.ends { others.request(more) }
            case .fail(let error):
                let running = takeEnding()
                releaseValues()
                running.cancel()
                if lifetime.end() { downstream.with { $0.receive(completion: .failure(error)) } }
                return .none
            case .finish:
                let running = takeEnding()
                releaseValues()
                running.cancel()
                if lifetime.end() { downstream.with { $0.receive(completion: .finished) } }
                return .none
            case .done(let owed):
                return owed
            }
        }
    }

    /// With the lock held and a delivery in progress: the failure that waits, else the next tuple
    /// if downstream wants one, else the end if it is due, else back to idle.
    @inlinable
    func nextStep() -> FanInStep<Downstream.Input, Downstream.Failure> {
        guard phase == .emitting else { return .done(owed: .none) }
        if let failure = pendingFailure {
            ending = terminate()
            return .fail(failure)
        }
        if demand != 0, hasTuple { return .deliver(takeTuple()) }
        if isFinished {
            ending = terminate()
            return .finish
        }
        phase = .idle
        let result = owed
        owed = .none
        driver = -1
        return .done(owed: result)
    }

    // MARK: Helpers, with the lock held

    @inlinable
    var hasTuple: Bool { Slots.pairs ? slots.unfilled == 0 : !tuples.isEmpty }

    /// zip: an upstream has finished with nothing left to pair. combineLatest: all have finished.
    @inlinable
    var isFinished: Bool { Slots.pairs ? finished & slots.unfilled != 0 : finished == Self.allLanes }

    @inlinable
    func takeTuple() -> Downstream.Input {
        if demand != .max { demand -= 1 }
        return Slots.pairs ? slots.take() : tuples.removeFirst()
    }

    /// combineLatest, after a value arrived: the tuple it makes, if every upstream has a value. One
    /// beyond the demand replaces the previous one beyond it.
    @inlinable
    func snapshot() {
        guard slots.unfilled == 0 else { return }
        if UInt(tuples.count) > demand {
            tuples.replaceLast(with: slots.take())
        } else {
            tuples.append(slots.take())
        }
    }

    /// Counts more downstream demand; returns the upstreams to request it from (all but the one
    /// whose value is being delivered, which gets it back from its `receive`).
    @inlinable
    func add(_ more: Subscribers.Demand) -> FanInUpstreams {
        demand = more._adding(to: demand)
        forwarded += more
        if driver >= 0 { owed += more }
        return upstreams.except(driver)
    }

    /// Ends the stream and returns the upstreams still running (and a failed one), to cancel.
    @inlinable
    func terminate() -> FanInUpstreams {
        phase = .terminated
        pendingFailure = nil
        let running = upstreams
        upstreams = FanInUpstreams()
        return running
    }

    /// The upstreams the ending step left to cancel.
    @inlinable
    func takeEnding() -> FanInUpstreams {
        lock.lock()
        defer { lock.unlock() }
        let running = ending
        ending = FanInUpstreams()
        return running
    }

    /// After the end: lets go of the stored values outside the lock, as their deinit may run anything.
    @inlinable
    func releaseValues() {
        lock.lock()
        let dropped = (slots, tuples)
        slots = Slots()
        tuples = RingBuffer()
        lock.unlock()
        withExtendedLifetime(dropped) {}
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
