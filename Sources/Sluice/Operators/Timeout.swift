// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without
    /// producing an element.
    ///
    /// The clock starts at the subscription, starts again at downstream's first request and at every
    /// value from upstream. When it runs out, upstream is cancelled and the stream ends on `scheduler`:
    /// with `.finished`, or with `.failure(customError())` if `customError` is given. Values and the
    /// upstream's completion are delivered on `scheduler` too.
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that terminates publishing if the upstream exceeds a time interval without
    /// producing an element.
    @frozen
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum time interval the publisher can go without emitting an element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to deliver events.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?
        /// A closure that produces the error to fail with at the timeout; without it the publisher
        /// finishes normally.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that terminates publishing if the upstream exceeds `interval`
        /// without producing an element.
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TimeoutSubscription<Upstream, Context, S>(
                    interval: interval, scheduler: scheduler, options: options, customError: customError,
                    downstream: subscriber))
        }
    }
}

/// Every value, the subscription and downstream's first request start the clock again: the
/// running timer is cancelled and a new one is scheduled `interval` from now, as Combine does (so at
/// an instant shared with other scheduled work the timeout runs in Combine's order). The timer is a
/// repeating schedule (the only kind with a cancellable); each carries the epoch it was armed in,
/// so a replaced timer whose action was already on its way does nothing.
///
/// Values and completions hop onto the scheduler, so downstream hears from the scheduler only,
/// through a `HopQueue`: one at a time and in order, a timeout after the values that came before
/// it, even from a concurrent scheduler.
/// `phase` is atomic so the delivery path checks it without the lock; every change to it and to the
/// timer happens under `lock`, which is never held while calling out.
///
/// Lifetimes: downstream and `customError` are used only inside calls through `lifetime`; the
/// completion's delivery (upstream's, or the timeout's), or a cancel, ends it, and the last call in
/// flight, or the cancel when none is, lets go of both. The timer is cancelled at the end; a timer
/// or delivery action already on its way holds this object until it runs, but nothing else.
@usableFromInline
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Hopping, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    /// What goes downstream: a value, upstream's completion, or the timeout's.
    @usableFromInline enum Signal {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
        case timedOut
    }

    /// Upstream completed; the completion waits on the scheduler (a cancel still reaches upstream).

    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    /// Used only inside calls through `lifetime` (the timeout's).
    @exclusivity(unchecked)
    @usableFromInline var customError: Releasable<(() -> Upstream.Failure)?>
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime

    @exclusivity(unchecked) @usableFromInline var timer: (any Cancellable)?
    /// Tells a replaced timer's late action apart from the armed timer's.
    @exclusivity(unchecked) @usableFromInline var timerEpoch: UInt = 0
    @exclusivity(unchecked) @usableFromInline var hasRequested = false
    /// Guarded by `slot.lock`.
    @exclusivity(unchecked) @usableFromInline var queue = HopQueue<Signal>()

    @inlinable
    init(
        interval: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions?,
        customError: (() -> Upstream.Failure)?, downstream: Downstream
    ) {
        self.interval = interval
        self.scheduler = scheduler
        self.options = options
        self.customError = Releasable(customError)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: TimeoutSubscription.self).release() }
    }

    @usableFromInline var description: String { "Timeout" }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard slot.attachOrCancelLate(subscription) else { return }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        // The clock starts at the subscription, once downstream has it: a scheduler that runs the
        // timeout at once (`ImmediateScheduler`) cannot end the stream before downstream's
        // subscription. (Combine starts it just before, and crashes there.)
        restartClock()
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard slot.status.load(ordering: .acquiring) == .active else { return .none }
        restartClock()
        let queued = withHop { queue -> Bool in
            guard slot.status.load(ordering: .relaxed) == .active else { return false }
            queue.append(.value(input))
            return true
        }
        if queued { scheduler.schedule(options: options) { self.hop() } }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return
        }
        slot.status.store(.finishing, ordering: .releasing)
        let stale = disarm()
        queue.append(.completion(completion))
        slot.lock.unlock()
        stale?.cancel()
        scheduler.schedule(options: options) { self.hop() }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .active, let live = slot.upstream else {
            slot.lock.unlock()
            return
        }
        // Combine starts the clock again at the first request.
        let restart = !hasRequested
        hasRequested = true
        slot.lock.unlock()
        live.request(demand)
        if restart { restartClock() }
    }

    @inlinable
    func cancel() {
        slot.lock.lock()
        let live = slot.upstream
        slot.upstream = nil
        let before = slot.status.load(ordering: .relaxed)
        slot.status.store(before == .awaiting ? .abandoned : .ended, ordering: .releasing)
        let stale = disarm()
        let dropped = queue.removeAll()
        slot.lock.unlock()
        withExtendedLifetime(dropped) {}
        stale?.cancel()
        live?.cancel()
        lifetime.end(self)
    }

    // MARK: On the scheduler (the holder of the queue's turn)

    @inlinable
    func withHop<Result>(_ body: (inout HopQueue<Signal>) -> Result) -> Result { slot.lock.withLock { body(&queue) } }

    @inlinable
    func perform(_ signal: consuming Signal) {
        switch consume signal {
        case .value(let input): deliver(input)
        case .completion(let completion): finish(completion)
        case .timedOut: finish(nil)
        }
    }

    @inlinable
    func deliver(_ input: Input) {
        let more =
            lifetime.call(self) { () -> Subscribers.Demand in
                let now = slot.status.load(ordering: .acquiring)
                guard now == .active || now == .finishing else { return .none }
                return downstream.with { $0.receive(input) }
            } ?? .none
        guard more != .none else { return }
        slot.lock.lock()
        let live = slot.status.load(ordering: .relaxed) == .active ? slot.upstream : nil
        slot.lock.unlock()
        live?.request(more)
    }

    /// Upstream's completion, or the timeout's (nil).
    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>?) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .finishing else {
            slot.lock.unlock()
            return
        }
        slot.status.store(.ended, ordering: .releasing)
        slot.upstream = nil
        slot.lock.unlock()
        lifetime.call(self) {
            guard lifetime.end() else { return }
            let completion =
                completion
                ?? customError.with { (makeError: inout (() -> Upstream.Failure)?) in
                    makeError.map { .failure($0()) } ?? .finished
                }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    /// The armed timer ran out: cancel upstream and end the stream.
    @inlinable
    func expire(epoch: UInt) {
        slot.lock.lock()
        guard epoch == timerEpoch, slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return
        }
        // Upstream is cancelled now; the values it sent before still go first.
        let live = slot.upstream
        slot.upstream = nil
        slot.status.store(.finishing, ordering: .releasing)
        let stale = disarm()
        queue.append(.timedOut)
        slot.lock.unlock()
        stale?.cancel()
        live?.cancel()
        // This action is the timeout's run.
        hop()
    }

    /// Replaces the armed timer by one due `interval` from now, unless the stream has ended.
    @inlinable
    func restartClock() {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return
        }
        let stale = disarm()
        let epoch = timerEpoch
        slot.lock.unlock()
        stale?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { self.expire(epoch: epoch) }
        slot.lock.lock()
        // A newer restart, a cancel or a completion may have come while scheduling.
        guard epoch == timerEpoch, slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return token.cancel()
        }
        timer = token
        slot.lock.unlock()
    }

    /// Lets go of downstream and `customError`: called once, when `lifetime` says so.
    @inlinable
    func release() {
        customError.release()
        downstream.release()
    }

    /// Forgets the armed timer (under the lock); the caller cancels what is returned after unlocking.
    @inlinable
    func disarm() -> (any Cancellable)? {
        timerEpoch &+= 1
        defer { timer = nil }
        return timer
    }
}
