// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval without
    /// producing an element.
    ///
    /// The clock starts at the subscription, starts again at downstream's first request and at every
    /// value from upstream. When it runs out, upstream is cancelled and the stream ends on `scheduler`:
    /// with `.finished`, or with `.failure(customError())` if `customError` is given. Values and the
    /// upstream's completion are delivered on `scheduler` too.
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

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(TimeoutSubscription(publisher: self, downstream: subscriber))
        }
    }
}

/// Runs one timer at a time and delivers every event on the scheduler.
///
/// The timer is a repeating schedule (the only kind with a cancellable), cancelled whenever it is
/// replaced or the stream ends. Each timer carries the generation it was started in: a timer that
/// fires after being replaced (a cancel racing its action) sees a newer generation and does nothing.
/// The scheduled closures hold the subscription strongly, as Combine's do, until they have run.
///
/// Values and the completion wait in a `Hop`, one scheduled action each, and the timeout's
/// completion joins them when the timer decides it, the timer's action making its run; each run
/// delivers the oldest event waiting, so they reach downstream one at a time and in order even on a
/// concurrent scheduler, and a value that came before the timeout goes before it. A cancel empties
/// the hop.
///
/// Lifetimes: downstream and `customError` live in the state, not in the scheduled closures: a
/// cancel lets go of them (and of the values waiting) at once and cancels the timer, and the
/// delivery of the completion takes them out.
private final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let customError: (() -> Upstream.Failure)?
    }

    private enum State {
        case awaitingSubscription(Live)
        case active(Live, upstream: any Subscription)
        /// Upstream completed, or the timer ran out; the completion waits in the hop behind the
        /// values that came before it. A cancel meanwhile still reaches a completed upstream, as in
        /// Combine; the timeout has cancelled upstream already (nil).
        case completing(Live, upstream: (any Subscription)?)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
        /// The timer ran out: finish, or fail with `customError()`.
        case timeout
    }

    private let lock = Lock()
    private var state: State
    /// The values and the completion, until their actions deliver them.
    private let hop: Hop<Event>
    private var timer: (any Cancellable)?
    private var timerGeneration: UInt64 = 0
    private var hasRequested = false

    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(publisher: Publishers.Timeout<Upstream, Context>, downstream: Downstream) {
        interval = publisher.interval
        scheduler = publisher.scheduler
        options = publisher.options
        state = .awaitingSubscription(Live(downstream: downstream, customError: publisher.customError))
        hop = Hop(lock: lock)
    }

    var description: String { "Timeout" }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .active(live, upstream: subscription)
        lock.unlock()
        live.downstream.receive(subscription: self)
        // The clock starts at the subscription, once downstream has it: a scheduler that runs the
        // timeout at once (`ImmediateScheduler`) cannot end the stream before downstream's
        // subscription. (Combine starts it just before, and crashes there.)
        restartTimer()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .active = state else {
            lock.unlock()
            return .none
        }
        hop.enqueue(.value(input))
        lock.unlock()
        restartTimer()
        scheduler.schedule(options: options) { self.hop.run(self.deliver) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .active(let live, let upstream) = state else {
            lock.unlock()
            return
        }
        state = .completing(live, upstream: upstream)
        hop.enqueue(.completion(completion))
        let stale = timer
        timer = nil
        timerGeneration += 1
        lock.unlock()
        stale?.cancel()
        scheduler.schedule(options: options) { self.hop.run(self.deliver) }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .active(_, let upstream) = state else {
            lock.unlock()
            return
        }
        let isFirst = !hasRequested
        hasRequested = true
        lock.unlock()
        upstream.request(demand)
        // Combine starts the clock again at the first request (its scheduler traffic shows a
        // second timer then, and none for later requests).
        if isFirst { restartTimer() }
    }

    func cancel() {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        let upstream: (any Subscription)?
        switch previous {
        case .active(_, let current): upstream = current
        case .completing(_, let current): upstream = current
        case .awaitingSubscription, .terminated, .abandoned: upstream = nil
        }
        if case .awaitingSubscription = previous { state = .abandoned } else { state = .terminated }
        let dropped = hop.removeAll()
        let stale = timer
        timer = nil
        timerGeneration += 1
        lock.unlock()
        stale?.cancel()
        upstream?.cancel()
        withExtendedLifetime(dropped) {}
    }

    // MARK: On the scheduler

    /// Delivers the oldest event waiting (the hop's turn), which may not be the one whose action
    /// this is.
    private func deliver(_ event: Event) {
        switch event {
        case .value(let input):
            lock.lock()
            let downstream: Downstream
            switch state {
            case .active(let live, _), .completing(let live, _):
                downstream = live.downstream
            case .awaitingSubscription, .terminated, .abandoned:
                lock.unlock()
                return
            }
            lock.unlock()
            let more = downstream.receive(input)
            guard more > 0 else { return }
            lock.lock()
            guard case .active(_, let upstream) = state else {
                lock.unlock()
                return
            }
            lock.unlock()
            upstream.request(more)
        case .completion(let completion):
            guard let live = finish() else { return }
            live.downstream.receive(completion: completion)
        case .timeout:
            guard let live = finish() else { return }
            live.downstream.receive(completion: live.customError.map { .failure($0()) } ?? .finished)
        }
    }

    /// Ends the stream for its completion: what downstream needs, or nil after a cancel.
    private func finish() -> Live? {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .completing(let live, _) = previous else {
            lock.unlock()
            return nil
        }
        state = .terminated
        lock.unlock()
        return live
    }

    private func timedOut(generation: UInt64) {
        lock.lock()
        guard generation == timerGeneration, case .active(let live, let upstream) = state else {
            lock.unlock()
            return
        }
        state = .completing(live, upstream: nil)
        hop.enqueue(.timeout)
        let expired = timer
        timer = nil
        timerGeneration += 1
        lock.unlock()
        expired?.cancel()
        upstream.cancel()
        hop.run(deliver)
    }

    /// Replaces the running timer by one that fires `interval` from now.
    private func restartTimer() {
        lock.lock()
        guard case .active = state else {
            lock.unlock()
            return
        }
        timerGeneration += 1
        let generation = timerGeneration
        let stale = timer
        timer = nil
        lock.unlock()
        stale?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { self.timedOut(generation: generation) }
        lock.lock()
        // Another restart, a cancel or a completion may have come in while scheduling.
        guard generation == timerGeneration, case .active = state else {
            lock.unlock()
            token.cancel()
            return
        }
        timer = token
        lock.unlock()
    }
}
