// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// Windows are `interval` long and start at the subscription. At the end of each window the
    /// elements received in it are emitted as one array, on the strategy's scheduler; a window with
    /// no elements emits nothing. With `.byTimeOrCount`, an array is also emitted as soon as it holds
    /// `count` elements, and the next window starts then. When upstream finishes, the elements
    /// collected so far are emitted before `.finished`; when it fails, they are dropped.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A grouping that collects and periodically publishes items.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// A grouping that collects and publishes items periodically or when a buffer reaches a
        /// maximum size.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// The demand it sends upstream is Combine's. With `.byTime`, each request from downstream asks
    /// upstream for one element, and each element it sends for one more, whatever downstream asked
    /// for. With `.byTimeOrCount`, a request for `n` arrays asks upstream for `n * count` elements,
    /// and so does demand downstream returns for an array that a full count closed; demand it
    /// returns for an array the timer closed counts downstream but asks upstream for nothing
    /// (Combine since macOS 11.3 and iOS 14.5), and every element returns no demand.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The strategy with which to collect and publish elements.
        public let strategy: TimeGroupingStrategy<Context>
        /// Scheduler options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that buffers and periodically publishes its items.
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByTimeSubscription(publisher: self, downstream: subscriber))
        }
    }
}

/// Collects the current window in `buffer`; closed windows wait in `ready` for demand and are
/// delivered on the scheduler, by one caller at a time (`isDelivering`), so downstream hears one
/// array at a time even from a concurrent scheduler.
///
/// The window timer is a repeating schedule, replaced when a full array ends a window early and
/// cancelled when the stream ends. It carries its generation so that a replaced timer whose action
/// was already under way does nothing.
///
/// Lifetimes: downstream lives in the state. A scheduled action holds this subscription until it
/// runs, but not downstream: a cancel lets go of downstream (and the collected values) at once and
/// cancels the timer; the drain that delivers the completion takes downstream out.
private final class CollectByTimeSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
    Subscriber,
    Subscription, Introspected
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case active(Downstream, upstream: any Subscription)
        /// Upstream completed: the arrays still in `ready` go first, then the completion.
        case completing(Downstream, Subscribers.Completion<Failure>)
        case terminated
    }

    private let lock = Lock()
    private var state: State
    /// The current window's elements.
    private var buffer: [Input] = []
    /// Closed windows, oldest first, waiting for demand.
    private var ready: [[Input]] = []
    private var demand = Subscribers.Demand.none
    private var timer: (any Cancellable)?
    private var timerGeneration: UInt64 = 0
    /// One caller at a time delivers, even from a concurrent scheduler; a drain that finds another
    /// one running leaves what waits to it.
    private var isDelivering = false

    private let scheduler: Context
    private let interval: Context.SchedulerTimeType.Stride
    /// The maximum array size (`.byTimeOrCount`), or nil (`.byTime`).
    private let count: Int?
    private let options: Context.SchedulerOptions?

    init(publisher: Publishers.CollectByTime<Upstream, Context>, downstream: Downstream) {
        switch publisher.strategy {
        case .byTime(let scheduler, let interval):
            self.scheduler = scheduler
            self.interval = interval
            count = nil
        case .byTimeOrCount(let scheduler, let interval, let count):
            self.scheduler = scheduler
            self.interval = interval
            self.count = max(count, 1)
        }
        options = publisher.options
        state = .awaitingSubscription(downstream)
        buffer.reserveCapacity(count ?? 0)
    }

    var description: String { "CollectByTime" }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .active(downstream, upstream: subscription)
        lock.unlock()
        restartTimer()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .active = state else {
            lock.unlock()
            return .none
        }
        buffer.append(input)
        guard let count else {
            lock.unlock()
            return .max(1)
        }
        guard buffer.count >= count else {
            lock.unlock()
            return .none
        }
        ready.append(takeBuffer())
        lock.unlock()
        restartTimer()
        scheduler.schedule(options: options) { self.drain() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` and `dropped` keep the upstream subscription and the dropped values until
        // the lock is released.
        let previous = state
        guard case .active(let downstream, _) = previous else {
            lock.unlock()
            return
        }
        var dropped: (buffer: [Input], ready: [[Input]]) = ([], [])
        switch completion {
        case .finished:
            if !buffer.isEmpty { ready.append(takeBuffer()) }
        case .failure:
            dropped = (buffer, ready)
            buffer = []
            ready = []
        }
        state = .completing(downstream, completion)
        let stale = timer
        timer = nil
        timerGeneration += 1
        lock.unlock()
        stale?.cancel()
        withExtendedLifetime(dropped) {}
        scheduler.schedule(options: options) { self.drain() }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        let upstream: (any Subscription)?
        switch state {
        case .active(_, let current): upstream = current
        case .completing: upstream = nil
        case .awaitingSubscription, .terminated:
            lock.unlock()
            return
        }
        self.demand += demand
        let owed = !ready.isEmpty
        lock.unlock()
        // `.byTime` asks for one value per request, then one more per value (`receive(_:)`), as
        // Combine's does.
        upstream?.request(count.map { demand * $0 } ?? .max(1))
        if owed { scheduler.schedule(options: options) { self.drain() } }
    }

    func cancel() {
        lock.lock()
        // `previous` and `dropped` keep downstream and the collected values until the lock is released.
        let previous = state
        let dropped = (buffer, ready)
        let upstream: (any Subscription)?
        if case .active(_, let current) = previous { upstream = current } else { upstream = nil }
        state = .terminated
        buffer = []
        ready = []
        let stale = timer
        timer = nil
        timerGeneration += 1
        lock.unlock()
        stale?.cancel()
        upstream?.cancel()
        withExtendedLifetime(dropped) {}
    }

    // MARK: On the scheduler

    /// The window ends: its elements, if any, join the arrays owed downstream.
    private func windowEnded(generation: UInt64) {
        lock.lock()
        guard generation == timerGeneration, case .active = state else {
            lock.unlock()
            return
        }
        if !buffer.isEmpty { ready.append(takeBuffer()) }
        lock.unlock()
        // Combine's `.byTimeOrCount` asks upstream for nothing for a window its timer closed.
        drain(askingUpstream: false)
    }

    /// Delivers the closed windows downstream has demand for, then the completion once none is left.
    /// What downstream returns from `receive(_:)` counts; with `.byTimeOrCount` and `askingUpstream`,
    /// upstream is asked for its arrays' elements too.
    private func drain(askingUpstream: Bool = true) {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        lock.unlock()
        while true {
            lock.lock()
            let downstream: Downstream
            switch state {
            case .active(let live, _):
                downstream = live
            case .completing(let live, let completion) where ready.isEmpty:
                state = .terminated
                isDelivering = false
                lock.unlock()
                live.receive(completion: completion)
                return
            case .completing(let live, _):
                downstream = live
            case .awaitingSubscription, .terminated:
                isDelivering = false
                lock.unlock()
                return
            }
            guard demand > 0, !ready.isEmpty else {
                isDelivering = false
                lock.unlock()
                return
            }
            let group = ready.removeFirst()
            demand -= 1
            lock.unlock()
            let more = downstream.receive(group)
            guard more > 0 else { continue }
            lock.lock()
            let upstream: (any Subscription)?
            switch state {
            case .active(_, let current):
                demand += more
                upstream = current
            case .completing:
                demand += more
                upstream = nil
            case .awaitingSubscription, .terminated:
                upstream = nil
            }
            lock.unlock()
            if askingUpstream, let count, let upstream { upstream.request(more * count) }
        }
    }

    /// Hands over the current window's elements and starts an empty one. Called under the lock.
    private func takeBuffer() -> [Input] {
        var next: [Input] = []
        next.reserveCapacity(count ?? buffer.count)
        swap(&next, &buffer)
        return next
    }

    /// Starts a new window: replaces the running timer by one that fires every `interval` from now.
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
        ) { self.windowEnded(generation: generation) }
        lock.lock()
        guard generation == timerGeneration, case .active = state else {
            lock.unlock()
            token.cancel()
            return
        }
        timer = token
        lock.unlock()
    }
}
