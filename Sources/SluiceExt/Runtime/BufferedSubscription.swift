// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

/// A subscription that keeps what it is given for its subscriber, and delivers it as demand allows:
/// `ReplaySubject`'s subscriptions and `create`'s.
///
/// - Values wait in a backlog, in order; the completion comes after them, demand or not, once the
///   subscriber has its subscription (`handedOver()`).
/// - One thread at a time delivers (it has the *turn*). A value, request or completion that comes
///   meanwhile (from another thread, or from inside the subscriber's `receive`) is taken up by the
///   thread with the turn, so the subscriber is never entered twice at once.
/// - A value offered when nothing waits, demand is left and nobody has the turn is delivered
///   directly (`claim` then `deliver(claimed:)`): it never enters the backlog.
/// - The stream ends when the completion is delivered or the subscriber cancels. The subscriber is
///   let go of by whoever ends it, or, if a turn is running, by the turn when it ends (so a cancel
///   never frees what a delivery uses); then the `whenEnded` action runs, once.
///
/// The subscriber itself is held by the subclass `BufferedConduit`, which is generic over it: the
/// three entries are closures made in its `@inlinable init`, where the subscriber's type is known,
/// so that a delivery runs code specialised for it, and a subject can keep a list of these whatever
/// its subscribers' types (as Sluice's subjects keep their `Conduit`s).
@usableFromInline
class BufferedSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    /// The state machine: each step says what the thread with the turn does next, outside the lock.
    @usableFromInline
    struct State {
        @usableFromInline var backlog: Backlog<Output>
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var demand = Subscribers.Demand.none
        /// The subscriber has its subscription: before that, a completion waits.
        @usableFromInline var isHandedOver = false
        /// A thread has the turn: others only add to the backlog or the demand.
        @usableFromInline var isDelivering = false
        /// The completion went out or the subscriber cancelled: nothing more is delivered.
        @usableFromInline var hasEnded = false
        @usableFromInline var whenEnded: ((BufferedSubscription) -> Void)?

        @inlinable
        init(backlog: Backlog<Output>, completion: Subscribers.Completion<Failure>?) {
            self.backlog = backlog
            self.completion = completion
        }

        @usableFromInline
        enum Step {
            case value(Output)
            case completion(Subscribers.Completion<Failure>)
            /// The subscriber cancelled during the turn: the turn lets go of it.
            case release
            /// Nothing to do now: the turn ends.
            case idle
        }

        /// A value is offered: true if the caller takes the turn to deliver it now, false if it
        /// waits in the backlog (or is dropped, the stream having ended or its completion come).
        @inlinable
        mutating func claim(_ value: Output) -> Bool {
            guard !hasEnded, completion == nil else { return false }
            if !isDelivering, demand > 0, backlog.isEmpty {
                isDelivering = true
                demand -= 1
                return true
            }
            backlog.append(value)
            return false
        }

        /// Takes the turn, unless a thread has it or the stream has ended.
        @inlinable
        mutating func startDelivering() -> Bool {
            guard !isDelivering, !hasEnded else { return false }
            isDelivering = true
            return true
        }

        /// With the turn: adds the demand the last value returned, and says what comes next.
        @inlinable
        mutating func next(adding more: Subscribers.Demand) -> Step {
            if hasEnded {
                isDelivering = false
                return .release
            }
            demand += more
            if demand > 0, let value = backlog.popFirst() {
                demand -= 1
                return .value(value)
            }
            if backlog.isEmpty, isHandedOver, let completion {
                hasEnded = true
                isDelivering = false
                return .completion(completion)
            }
            isDelivering = false
            return .idle
        }

        /// Ends the stream (a cancel): the backlog, to let go of outside the lock, and whether the
        /// caller lets go of the subscriber now (no turn runs).
        @inlinable
        mutating func end() -> (dropped: Backlog<Output>, releaseNow: Bool) {
            guard !hasEnded else { return (Backlog(), false) }
            hasEnded = true
            defer { backlog = Backlog() }
            return (backlog, !isDelivering)
        }
    }

    @usableFromInline let description: String
    @usableFromInline let lock = Lock()
    /// `final`: an overridable property would be reached through a vtable accessor at each use.
    @exclusivity(unchecked)
    @usableFromInline final var state: State
    /// The subscriber's `receive(_:)`, specialised for it (see the type's comment).
    @usableFromInline let receiveEntry: (BufferedSubscription, Output) -> Subscribers.Demand
    /// The subscriber's `receive(completion:)`.
    @usableFromInline let completeEntry: (BufferedSubscription, Subscribers.Completion<Failure>) -> Void
    /// Lets go of the subscriber.
    @usableFromInline let releaseEntry: (BufferedSubscription) -> Void

    @inlinable
    init(
        _ description: String, backlog: Backlog<Output>, completion: Subscribers.Completion<Failure>?,
        receiveEntry: @escaping (BufferedSubscription, Output) -> Subscribers.Demand,
        completeEntry: @escaping (BufferedSubscription, Subscribers.Completion<Failure>) -> Void,
        releaseEntry: @escaping (BufferedSubscription) -> Void
    ) {
        self.description = description
        state = State(backlog: backlog, completion: completion)
        self.receiveEntry = receiveEntry
        self.completeEntry = completeEntry
        self.releaseEntry = releaseEntry
    }

    /// Offers a value: true if the caller must now deliver it with `deliver(claimed:)`; otherwise it
    /// waits in the backlog for the thread with the turn, or for demand.
    @inlinable
    final func claim(_ value: Output) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return state.claim(value)
    }

    /// Sets the completion that follows the backlog (it is delivered by `deliver()`).
    @inlinable
    final func enqueue(_ completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            if state.completion == nil { state.completion = completion }
        }
    }

    /// The subscriber has its subscription: a completion may now be delivered.
    @inlinable
    final func handedOver() {
        deliver { $0.isHandedOver = true }
    }

    /// Runs `action` when the stream ends, or now if it has ended.
    @inlinable
    final func whenEnded(_ action: @escaping (BufferedSubscription) -> Void) {
        let hasEnded = lock.withLock { () -> Bool in
            guard !state.hasEnded else { return true }
            state.whenEnded = action
            return false
        }
        if hasEnded { action(self) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        deliver { $0.demand += demand }
    }

    /// Makes `change` to the state, then delivers what the backlog holds, as demand allows, unless
    /// another thread has the turn.
    @inlinable
    final func deliver(after change: (inout State) -> Void = { _ in }) {
        lock.lock()
        change(&state)
        let start = state.startDelivering()
        lock.unlock()
        if start { deliver(adding: .none) }
    }

    /// Delivers a value `claim` gave the turn for, then what came meanwhile.
    @inlinable
    final func deliver(claimed value: Output) {
        deliver(adding: receiveEntry(self, value))
    }

    /// With the turn: delivers until there is nothing to do, `more` being the demand the last value
    /// returned.
    @inlinable
    final func deliver(adding more: Subscribers.Demand) {
        var more = more
        while true {
            lock.lock()
            let step = state.next(adding: more)
            lock.unlock()
            switch step {
            case .value(let value):
                more = receiveEntry(self, value)
            case .completion(let completion):
                completeEntry(self, completion)
                return ended()
            case .release:
                return ended()
            case .idle:
                return
            }
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let (dropped, releaseNow) = state.end()
        lock.unlock()
        withExtendedLifetime(dropped) {}
        if releaseNow { ended() }
    }

    /// The stream has ended and no turn runs: lets go of the subscriber, then runs `whenEnded`.
    @inlinable
    final func ended() {
        releaseEntry(self)
        lock.withLock { state.whenEnded.take() }?(self)
    }
}

/// A `BufferedSubscription` holding its subscriber, of a concrete type.
@usableFromInline
final class BufferedConduit<Downstream: Subscriber>: BufferedSubscription<Downstream.Input, Downstream.Failure> {
    /// Used only by the thread with the turn, and let go of once the stream has ended and no turn
    /// runs.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>

    @inlinable
    init(
        _ description: String, downstream: Downstream, backlog: Backlog<Downstream.Input> = Backlog(),
        completion: Subscribers.Completion<Downstream.Failure>? = nil
    ) {
        self.downstream = Releasable(downstream)
        super.init(
            description, backlog: backlog, completion: completion,
            receiveEntry: { conduit, value in
                unsafeDowncast(conduit, to: BufferedConduit.self).downstream.with { $0.receive(value) }
            },
            completeEntry: { conduit, completion in
                unsafeDowncast(conduit, to: BufferedConduit.self).downstream.with { $0.receive(completion: completion) }
            },
            releaseEntry: { conduit in unsafeDowncast(conduit, to: BufferedConduit.self).downstream.release() })
    }
}
