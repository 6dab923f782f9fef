// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// Each value restarts a timer of `dueTime` on `scheduler`; when the timer expires with no newer
    /// value, the last value is delivered on the scheduler, if downstream has demand for it (otherwise
    /// it is dropped). Upstream is asked for unlimited demand. A completion is delivered on the
    /// scheduler as soon as possible and drops a value still waiting for its timer, as Combine does.
    @inlinable
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
        @inlinable
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DebounceSubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `debounce`: its state is a
/// `DebounceState` under one lock, never held while calling out. Timers are Combine's kind: a
/// repeating action with the due time as interval, cancelled when replaced, once it has fired, and
/// at the end. What it delivers (a value whose timer fired, the completion) goes through a
/// `HopQueue`, in the order decided under the lock, one at a time: a concurrent scheduler, whose
/// timer and completion actions may run at once, still delivers a fired value before the completion.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of
/// downstream. The value waiting for its timer, the timer and upstream go at the end too; a timer
/// action already on its way holds this object until it runs, but no longer downstream.
@usableFromInline
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Hopping, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias State = DebounceState<Input, Failure>
    @usableFromInline typealias Signal = Hopped<Input, Failure>

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let dueTime: Context.SchedulerTimeType.Stride
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = State()
    /// What goes downstream, in the order decided. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var queue = HopQueue<Signal>()

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
        self.downstream = Releasable(downstream)
        dueTime = publisher.dueTime
        scheduler = publisher.scheduler
        options = publisher.options
        lifetime = Lifetime { unsafeDowncast($0, to: DebounceSubscription.self).downstream.release() }
    }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    @usableFromInline var description: String { "Debounce" }

    @usableFromInline var customMirror: Mirror {
        let (demand, latest) = withState { ($0.demand, $0.latest) }
        return Mirror(
            self,
            children: [
                ("downstream", downstream.value as Any), ("downstreamDemand", demand), ("currentValue", latest as Any),
            ])
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch withState({ $0.upstreamArrived(subscription) }) {
        case .leaveAlone:
            break
        case .cancel:
            subscription.cancel()
        case .start:
            lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
            subscription.request(.unlimited)
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let (replaced, generation) = withState({ $0.received(input) }) else { return .none }
        replaced?.cancel()
        arm(for: generation)
        return .none
    }

    @inlinable
    func arm(for generation: UInt64) {
        let due = scheduler.now.advanced(by: dueTime)
        guard dueTime > .nanoseconds(0) else {
            // Due at once: no timer to cancel later (and a repeating action needs a positive interval).
            scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) {
                self.fire(generation)
            }
            return
        }
        let token = scheduler.schedule(
            after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
        ) {
            self.fire(generation)
        }
        if !withState({ $0.timerScheduled(token, for: generation) }) { token.cancel() }
    }

    @inlinable
    func fire(_ generation: UInt64) {
        let fired = lock.withLock { () -> State.Fired in
            let fired = state.timerFired(for: generation)
            if case .due(let value, true, _) = fired { queue.append(.value(value)) }
            return fired
        }
        guard case .due(_, let wanted, let spent) = fired else { return }
        spent?.cancel()
        // This action is the queued value's run.
        if wanted { hop() }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let (stopped, schedules) = lock.withLock {
            let ending = state.upstreamCompleted()
            if ending.schedules { queue.append(.completion(completion)) }
            return ending
        }
        guard schedules else { return }
        stopped?.cancel()
        scheduler.schedule(options: nil) { self.hop() }
    }

    // MARK: Delivery (the holder of the queue's turn)

    @inlinable
    func withHop<Result>(_ body: (inout HopQueue<Signal>) -> Result) -> Result { lock.withLock { body(&queue) } }

    @inlinable
    func perform(_ signal: consuming Signal) {
        switch consume signal {
        case .value(let value):
            let more = lifetime.call(self) { downstream.with { $0.receive(value) } } ?? .none
            if more != .none { withState { $0.delivered(more) } }
        case .completion(let completion):
            finish(completion)
        }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard withState({ $0.completionDue() }) else { return }
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        withState { $0.requested(demand) }
    }

    @inlinable
    func cancel() {
        let (upstream, timer, dropped) = lock.withLock {
            let (upstream, timer) = state.cancelled()
            return (upstream, timer, queue.removeAll())
        }
        withExtendedLifetime(dropped) {}
        timer?.cancel()
        upstream?.cancel()
        lifetime.end(self)
    }
}
