// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// Each value restarts a timer of `dueTime` on `scheduler`; when the timer expires with no newer
    /// value, the last value is delivered on the scheduler, if downstream has demand for it (otherwise
    /// it is dropped). Upstream is asked for unlimited demand. A completion is delivered on the
    /// scheduler as soon as possible and drops a value still waiting for its timer, as Combine does.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between events.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context
        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval elapses between events.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DebounceSubscription(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `debounce`.
///
/// Every value gets a sequence number and its own timer; a timer delivers only the value it was
/// started for, so a timer that fires after a newer value arrived (a scheduler that could not cancel
/// it in time) delivers nothing. The timer is Combine's kind: a repeating action with the due time as
/// its interval, cancelled when a newer value replaces it, when it has fired, and at the end.
///
/// What the timers and the completion decide to deliver waits in a `Hop`, in the order decided;
/// the timer that decided a value, or the completion's action, delivers the oldest one waiting, so
/// they reach downstream one at a time and in order even on a concurrent scheduler, and a value
/// decided before the completion goes before it. A cancel empties the hop.
///
/// Lifetimes: downstream lives in the state. A scheduled action holds this subscription until it
/// runs, but not downstream: a cancel lets go of downstream (and the pending and decided values)
/// at once and cancels the timer; the completion's delivery takes downstream out.
private final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        /// Upstream completed; the completion is scheduled and nothing more is delivered but it.
        case completing(Downstream)
        /// Completed or cancelled.
        case terminated
    }

    private enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = Lock()
    private var state: State
    /// What the timers and the completion decided to deliver, until it is delivered.
    private let hop: Hop<Event>
    /// Requested by downstream and not yet delivered.
    private var demand = Subscribers.Demand.none
    /// The value waiting for its timer, with its sequence number.
    private var pending: (value: Input, number: UInt64)?
    /// The number given to the most recent value.
    private var lastNumber: UInt64 = 0
    /// The timer of the pending value, once the scheduler has returned it.
    private var timer: (any Cancellable)?

    private let dueTime: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(
        downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
        options: Context.SchedulerOptions?
    ) {
        state = .awaitingSubscription(downstream)
        hop = Hop(lock: lock)
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "Debounce" }

    /// Combine's children: the subscriber, its outstanding demand, the value waiting for quiet.
    var customMirror: Mirror {
        lock.withLock {
            let downstream: Downstream? =
                switch state {
                case .awaitingSubscription(let downstream), .subscribed(let downstream, _), .completing(let downstream):
                    downstream
                case .terminated: nil
                }
            return Mirror(
                self,
                children: [
                    ("downstream", downstream as Any), ("downstreamDemand", demand),
                    ("currentValue", pending?.value as Any),
                ])
        }
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(downstream, upstream: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        // Values are dropped, not held back, when downstream has no demand: upstream never waits.
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        lastNumber += 1
        let number = lastNumber
        pending = (input, number)
        let replaced = timer
        timer = nil
        lock.unlock()
        replaced?.cancel()

        let due = scheduler.now.advanced(by: dueTime)
        let fire = { self.timerFired(number) }
        // A repeating action needs a positive interval; a due time of zero is due at once and
        // leaves nothing worth cancelling.
        guard dueTime > .nanoseconds(0) else {
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options, fire)
            return .none
        }
        let started = scheduler.schedule(
            after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options, fire)
        // Keep the timer only if it still belongs to the newest pending value: it may have fired
        // already, or a newer value, a completion or a cancel may have come in meanwhile.
        lock.lock()
        if case .subscribed = state, pending?.number == number {
            timer = started
            lock.unlock()
        } else {
            lock.unlock()
            started.cancel()
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` and `dropped` keep the upstream subscription and the pending value until the
        // lock is released.
        let previous = state
        guard case .subscribed(let downstream, _) = previous else {
            lock.unlock()
            return
        }
        state = .completing(downstream)
        let dropped = pending
        pending = nil
        let stopped = timer
        timer = nil
        hop.enqueue(.completion(completion))
        lock.unlock()
        stopped?.cancel()
        withExtendedLifetime(dropped) {}
        scheduler.schedule(options: nil) { self.hop.run(self.deliver) }
    }

    // MARK: Scheduler

    private func timerFired(_ number: UInt64) {
        lock.lock()
        guard case .subscribed = state, let current = pending, current.number == number else {
            lock.unlock()
            return
        }
        pending = nil
        let finished = timer
        timer = nil
        let delivers = demand > 0
        if delivers {
            demand -= 1
            hop.enqueue(.value(current.value))
        }
        lock.unlock()
        finished?.cancel()
        withExtendedLifetime(current) {}
        if delivers { hop.run(deliver) }
    }

    /// Delivers the oldest event waiting (the hop's turn), which may not be the one this run
    /// decided.
    private func deliver(_ event: Event) {
        switch event {
        case .value(let value):
            lock.lock()
            let downstream: Downstream
            switch state {
            case .subscribed(let live, _), .completing(let live):
                downstream = live
            case .awaitingSubscription, .terminated:
                lock.unlock()
                return
            }
            lock.unlock()
            let more = downstream.receive(value)
            guard more > 0 else { return }
            lock.lock()
            if case .subscribed = state { demand += more }
            lock.unlock()
        case .completion(let completion):
            lock.lock()
            guard case .completing(let downstream) = state else {
                lock.unlock()
                return
            }
            state = .terminated
            lock.unlock()
            downstream.receive(completion: completion)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        if case .subscribed = state { self.demand += demand }
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        // `previous` and `dropped` keep downstream and the pending value until the lock is released.
        let previous = state
        let dropped = (pending, hop.removeAll())
        state = .terminated
        pending = nil
        let stopped = timer
        timer = nil
        lock.unlock()
        stopped?.cancel()
        if case .subscribed(_, let upstream) = previous { upstream.cancel() }
        withExtendedLifetime(dropped) {}
    }
}
