// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// What a subscription whose state is a machine does after an event: `flatMap`'s, `merge`'s and
/// `switchToLatest`'s state (`FlatMapState`, `MergeState`, `SwitchToLatestState`) lives under
/// the subscription's lock, each event is a mutating method that returns one of these, and the
/// subscription performs it once it has unlocked, so no lock is held while calling out.
@usableFromInline
enum MachineAction<Failure: Error> {
    case none
    case cancel(any Subscription)
    case request(any Subscription, Subscribers.Demand)
    /// The stream has ended: cancels these subscriptions, then delivers the completion if there is
    /// one (otherwise the caller that delivers it is busy delivering and does it after).
    case end(cancelling: ContiguousArray<any Subscription>, Subscribers.Completion<Failure>?)
    /// The caller has taken the delivering turn: it delivers what waits.
    case drain

    /// Does it: `complete` delivers the stream's completion, `drain` runs the delivering turn.
    @inlinable
    func perform(complete: (Subscribers.Completion<Failure>) -> Void, drain: () -> Void) {
        switch self {
        case .none: break
        case .cancel(let subscription): subscription.cancel()
        case .request(let subscription, let demand): subscription.request(demand)
        case .end(let subscriptions, let completion):
            for subscription in subscriptions { subscription.cancel() }
            if let completion { complete(completion) }
        case .drain: drain()
        }
    }
}

/// A machine with one fact its owner's value path reads without the lock (whether the stream has
/// ended, whether values pass, which part runs last): each event publishes it in an atomic.
@usableFromInline
protocol PublishingState {
    associatedtype Fact
    /// What the value path reads.
    var published: Fact { get }
}

extension PublishingState {
    /// Runs an event of the machine, and publishes what the value path reads with `publish`. The
    /// owner calls it under its lock, so that the exclusive access to its `state` property begins
    /// after the lock is taken (an `inout` argument's access starts at the call site).
    @inlinable @inline(__always)
    mutating func run<Result>(_ body: (inout Self) -> Result, publishing publish: (Fact) -> Void) -> Result {
        let result = body(&self)
        publish(published)
        return result
    }
}

// `Atomic`'s `store` exists per storage size, so each kind of fact has its own spelling.
extension PublishingState where Fact == Bool {
    /// Runs an event, and publishes the fact to `cell`.
    @inlinable @inline(__always)
    mutating func run<Result>(_ body: (inout Self) -> Result, publishingTo cell: borrowing Atomic<Bool>) -> Result {
        run(body) { cell.store($0, ordering: .releasing) }
    }
}

extension PublishingState where Fact == Int {
    /// Runs an event, and publishes the fact to `cell`.
    @inlinable @inline(__always)
    mutating func run<Result>(_ body: (inout Self) -> Result, publishingTo cell: borrowing Atomic<Int>) -> Result {
        run(body) { cell.store($0, ordering: .releasing) }
    }
}

// MARK: Serial delivery

/// The delivering turn of a machine whose events come from several sources, threads, and from
/// inside downstream's own calls (`flatMap`, `merge`, `switchToLatest`). The caller that takes it
/// is downstream's only caller until it gives it back: what arrives meanwhile waits (each machine
/// keeps its own queue), and so does a failure, here, which the holder delivers at its next step.
/// A cancel forgets a failure that waits: once it has returned, downstream hears nothing more.
@frozen @usableFromInline
struct DeliveryTurn<Failure: Error> {
    @usableFromInline enum State {
        case free
        case taken
        /// Taken, and the stream failed meanwhile: the holder delivers the failure next.
        case owing(Failure)
    }

    @usableFromInline var state = State.free

    @inlinable init() {}

    @inlinable var isTaken: Bool {
        if case .free = state { false } else { true }
    }

    /// Takes the turn if nobody holds it: true for the caller that now delivers.
    @inlinable @discardableResult
    mutating func take() -> Bool {
        guard case .free = state else { return false }
        state = .taken
        return true
    }

    /// The holder gives the turn back: nothing it may deliver waits, or the stream's lifetime
    /// ended under it.
    @inlinable mutating func giveBack() { state = .free }

    /// The stream fails: the completion to deliver now when nobody holds the turn; otherwise the
    /// failure waits for the holder (the first one: a later failure is dropped), and nil.
    @inlinable
    mutating func fail(_ error: Failure) -> Subscribers.Completion<Failure>? {
        switch state {
        case .free: return .failure(error)
        case .taken: state = .owing(error)
        case .owing: break
        }
        return nil
    }

    /// The holder's first question at each step: the failure that waits, which ends its turn.
    @inlinable
    mutating func owedFailure() -> Failure? {
        guard case .owing(let error) = state else { return nil }
        state = .free
        return error
    }

    /// Downstream cancelled: a failure that waits is never delivered. True if one waited (the
    /// stream had ended, but its end had not reached downstream).
    @inlinable
    mutating func cancel() -> Bool {
        guard case .owing = state else { return false }
        state = .taken
        return true
    }
}

/// What the holder of a `DeliveryTurn` does next.
@usableFromInline
enum DeliveryStep<Value, Failure: Error, Callout> {
    /// Delivers the value, then asks for the next step with downstream's answer.
    case value(Value)
    /// Does what the machine asked for outside the lock (a request to one of its sources), then
    /// asks for the next step.
    case callout(Callout)
    /// Delivers the stream's end: the turn is given back.
    case completion(Subscribers.Completion<Failure>)
    /// The turn is given back; the stream is live.
    case idle
    /// The turn is given back; the stream has ended.
    case ended

    /// True for a step after which the stream is over: nothing more is asked of its sources.
    @inlinable var ends: Bool {
        switch self {
        case .completion, .ended: true
        case .value, .callout, .idle: false
        }
    }
}

/// A subscription whose machine has a `DeliveryTurn`: the holder's loop is `drain`, the same for
/// all of them; each says what a step means for it.
@usableFromInline
protocol SerialDelivering: AnyObject {
    associatedtype Value
    associatedtype Failure: Error
    associatedtype Callout

    /// Downstream's `receive(_:)` (the holder is inside the subscription's lifetime).
    func deliver(_ value: Value) -> Subscribers.Demand
    /// The step after downstream answered `more` to the value just delivered.
    func delivered(_ more: Subscribers.Demand) -> DeliveryStep<Value, Failure, Callout>
    /// Does the callout (outside the lock); the step after it.
    func callOut(_ callout: Callout) -> DeliveryStep<Value, Failure, Callout>
    /// Downstream's `receive(completion:)`, once.
    func complete(_ completion: Subscribers.Completion<Failure>)
}

extension SerialDelivering {
    /// The holder's loop, from its first step until it gives the turn back: whether the stream is
    /// still live.
    @inlinable @discardableResult
    func drain(_ first: consuming DeliveryStep<Value, Failure, Callout>) -> Bool {
        var step = first
        while true {
            // Consumed, not copied (`first` too: a borrowed one would be copied into `step`): a
            // copy of a step that holds an existential goes through value witnesses (a third of
            // flatMap's cost per value over a subject).
            switch consume step {
            case .value(let value): step = delivered(deliver(value))
            case .callout(let callout): step = callOut(callout)
            case .completion(let completion):
                complete(completion)
                return false
            case .idle: return true
            case .ended: return false
            }
        }
    }
}

// MARK: Hopping to a scheduler

/// What an operator that hops its signals to a scheduler keeps under its lock (`receive(on:)`,
/// `delay`, `subscribe(on:)`'s calls to upstream, what `debounce`, `throttle` and `timeout` decide to
/// deliver): the signals in the order they came, and the turn to hand them out.
///
/// Each signal is paired with one run of `HopQueue.actionRuns()` (the scheduler action made for
/// it, or the action that decided it). A run hands out the *oldest* signal, not its own, and only
/// to one caller at a time; a run that finds the turn taken leaves its share to the holder, who
/// hands out one more signal for it when it is done. So a concurrent scheduler, which may run the
/// actions in any order and at once, still gets the signals through in order, one at a time, the
/// completion after every value sent before it; on a serial scheduler each action hands out its own
/// signal, as Combine's does. A re-entrant run (an `ImmediateScheduler`, a subscriber sending into
/// its upstream subject) finds the turn taken too: its signal follows the one in hand.
@usableFromInline
struct HopQueue<Signal> {
    @usableFromInline var waiting = RingBuffer<Signal>()
    /// Runs that found the turn taken: the holder hands out a signal for each.
    @usableFromInline var owed = 0
    @usableFromInline var isTaken = false

    @inlinable init() {}

    /// Queues a signal; the caller then arranges its one run.
    @inlinable
    mutating func append(_ signal: Signal) { waiting.append(signal) }

    /// A run: the oldest signal, if the caller takes the turn to hand it out.
    @inlinable
    mutating func actionRuns() -> Signal? {
        guard !isTaken else {
            owed &+= 1
            return nil
        }
        guard !waiting.isEmpty else { return nil }
        isTaken = true
        return waiting.removeFirst()
    }

    /// The holder has handed out a signal: the next one it hands out, or nil when it gives the
    /// turn back.
    @inlinable
    mutating func handedOut() -> Signal? {
        if owed > 0 && !waiting.isEmpty {
            owed &-= 1
            return waiting.removeFirst()
        }
        owed = 0
        isTaken = false
        return nil
    }

    /// The stream ended early (a cancel): the signals that wait, for the caller to let go of
    /// outside the lock. Runs still to come hand out nothing.
    @inlinable
    mutating func removeAll() -> RingBuffer<Signal> {
        defer { waiting = RingBuffer() }
        return waiting
    }
}

/// A value or the completion on its way downstream through a `HopQueue`.
@usableFromInline
enum Hopped<Value, Failure: Error> {
    case value(Value)
    case completion(Subscribers.Completion<Failure>)
}

/// A subscription that hands out its signals through a `HopQueue`: its scheduler actions call
/// `hop()`, the same loop for all of them.
@usableFromInline
protocol Hopping: AnyObject {
    associatedtype Signal
    /// Runs `body` on the queue under the subscription's lock.
    func withHop<Result>(_ body: (inout HopQueue<Signal>) -> Result) -> Result
    /// Hands out one signal (the caller holds the turn, outside the lock).
    func perform(_ signal: consuming Signal)
}

extension Hopping {
    /// One run of the queue: hands out the oldest signal if nobody else is, and one more for each
    /// run that came meanwhile.
    @inlinable
    func hop() {
        var next = withHop { $0.actionRuns() }
        while let signal = next {
            perform(signal)
            next = withHop { $0.handedOut() }
        }
    }
}

// MARK: Moving from source to source

/// What an operator that reads one source after another and carries downstream's outstanding demand
/// across them (`catch`, `retry`, a concatenation's parts) does with a source's subscription.
@usableFromInline
enum SourceArrival {
    /// The first source's: downstream gets the operator's subscription.
    case handDownstream
    /// A later source's: it is asked for the demand outstanding (if any).
    case request(Subscribers.Demand)
    /// A second subscription for a source, or one after the end.
    case cancel

    /// Does it with `subscription`; `handDownstream` gives downstream the operator's own.
    @inlinable
    func perform(on subscription: any Subscription, handDownstream: () -> Void) {
        switch self {
        case .handDownstream: handDownstream()
        case .request(let demand): if demand != .none { subscription.request(demand) }
        case .cancel: subscription.cancel()
        }
    }
}

/// What such an operator does with a value from a source.
@usableFromInline
enum SourceInput {
    /// Delivers it (the outstanding demand is counted already, unless it is unlimited).
    case deliver(isUnlimited: Bool)
    /// From a source that is no longer current, or after the end.
    case drop
    /// As Combine's: a value before downstream has the subscription traps...
    case trapBeforeSubscription
    /// ...and so does one beyond the demand (the operator counts it).
    case trapBeyondDemand

    /// A value from the current source, against `outstanding`.
    @inlinable
    static func counted(against outstanding: inout Subscribers.Demand) -> SourceInput {
        guard outstanding > 0 else { return .trapBeyondDemand }
        let isUnlimited = outstanding == .unlimited
        if !isUnlimited { outstanding -= 1 }
        return .deliver(isUnlimited: isUnlimited)
    }
}
