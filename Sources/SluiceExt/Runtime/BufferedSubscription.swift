// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

/// A subscription that keeps what it is given for its subscriber, and delivers it as demand allows:
/// `ReplaySubject`'s subscriptions and `create`'s.
///
/// - Values wait in a backlog, in order; the completion comes after them, demand or not, once the
///   subscriber has its subscription (`handedOver()`).
/// - One thread at a time delivers. A value, request or completion that comes meanwhile (from
///   another thread, or from inside the subscriber's `receive`) is taken up by the delivering
///   thread, so the subscriber is never entered twice at once.
/// - The stream ends when the completion is delivered or the subscriber cancels: the subscriber and
///   the backlog are let go of, and the `whenEnded` action runs, once.
///
/// The subscriber is held as two closures made where it subscribes (`init` is inlined there), so
/// that a delivery runs code specialised for it, and a subject can keep a list of these whatever
/// its subscribers' types.
@usableFromInline
final class BufferedSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    /// The subscriber, as the two calls a delivery makes.
    @usableFromInline
    struct Downstream {
        @usableFromInline let receive: (Output) -> Subscribers.Demand
        @usableFromInline let complete: (Subscribers.Completion<Failure>) -> Void

        @inlinable
        init(
            receive: @escaping (Output) -> Subscribers.Demand,
            complete: @escaping (Subscribers.Completion<Failure>) -> Void
        ) {
            self.receive = receive
            self.complete = complete
        }
    }

    /// The state machine: each step says what to deliver, and the delivering thread calls the
    /// subscriber outside the lock.
    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var backlog: Backlog<Output>
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var demand = Subscribers.Demand.none
        /// The subscriber has its subscription: before that, a completion waits.
        @usableFromInline var isHandedOver = false
        /// A thread is delivering: others only add to the backlog or the demand.
        @usableFromInline var isDelivering = false
        @usableFromInline var whenEnded: ((BufferedSubscription) -> Void)?

        @inlinable
        init(downstream: Downstream, backlog: Backlog<Output>, completion: Subscribers.Completion<Failure>?) {
            self.downstream = downstream
            self.backlog = backlog
            self.completion = completion
        }

        @usableFromInline
        enum Step {
            case value(Output, Downstream)
            case completion(Subscribers.Completion<Failure>, Downstream)
            case idle
        }

        /// Becomes the delivering thread, unless one already is.
        @inlinable
        mutating func startDelivering() -> Bool {
            guard !isDelivering, downstream != nil else { return false }
            isDelivering = true
            return true
        }

        /// The next thing to deliver, or `idle`, which ends the turn.
        @inlinable
        mutating func next() -> Step {
            if let downstream {
                if demand > 0, let value = backlog.popFirst() {
                    demand -= 1
                    return .value(value, downstream)
                }
                if backlog.isEmpty, isHandedOver, let completion {
                    self.downstream = nil
                    return .completion(completion, downstream)
                }
            }
            isDelivering = false
            return .idle
        }

        /// Ends the stream (a cancel): what it lets go of, to release outside the lock.
        @inlinable
        mutating func end() -> (Downstream?, ((BufferedSubscription) -> Void)?) {
            backlog.removeAll()
            return (downstream.take(), whenEnded.take())
        }
    }

    @usableFromInline let description: String
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init<S: Subscriber>(
        _ description: String, downstream: S, backlog: Backlog<Output> = Backlog(),
        completion: Subscribers.Completion<Failure>? = nil
    ) where S.Input == Output, S.Failure == Failure {
        self.description = description
        state = State(
            downstream: Downstream(
                receive: { downstream.receive($0) }, complete: { downstream.receive(completion: $0) }),
            backlog: backlog, completion: completion)
    }

    /// Adds `value` to the backlog (it is delivered by `deliver()`), unless the stream has ended or
    /// its completion has come.
    @inlinable
    func enqueue(_ value: Output) {
        lock.withLock {
            if state.downstream != nil, state.completion == nil { state.backlog.append(value) }
        }
    }

    /// Sets the completion that follows the backlog (it is delivered by `deliver()`).
    @inlinable
    func enqueue(_ completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            if state.completion == nil { state.completion = completion }
        }
    }

    /// The subscriber has its subscription: a completion may now be delivered.
    @inlinable
    func handedOver() {
        lock.withLock { state.isHandedOver = true }
        deliver()
    }

    /// Runs `action` when the stream ends, or now if it has ended.
    @inlinable
    func whenEnded(_ action: @escaping (BufferedSubscription) -> Void) {
        let hasEnded = lock.withLock { () -> Bool in
            guard state.downstream != nil else { return true }
            state.whenEnded = action
            return false
        }
        if hasEnded { action(self) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.withLock { state.demand += demand }
        deliver()
    }

    /// Delivers what the backlog holds, as demand allows, unless another thread already is.
    @inlinable
    func deliver() {
        guard lock.withLock({ state.startDelivering() }) else { return }
        while true {
            switch lock.withLock({ state.next() }) {
            case .value(let value, let downstream):
                let more = downstream.receive(value)
                if more > 0 { lock.withLock { state.demand += more } }
            case .completion(let completion, let downstream):
                downstream.complete(completion)
                lock.withLock { state.whenEnded.take() }?(self)
            case .idle:
                return
            }
        }
    }

    @inlinable
    func cancel() {
        let (released, whenEnded) = lock.withLock { state.end() }
        withExtendedLifetime(released) {}
        whenEnded?(self)
    }
}
