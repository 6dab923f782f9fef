// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// Windows are `interval` long and start at the subscription. At the end of each window the
    /// elements received in it are emitted as one array, on the strategy's scheduler; a window with
    /// no elements emits nothing. With `.byTimeOrCount`, an array is also emitted as soon as it holds
    /// `count` elements, and the next window starts then. When upstream finishes, the elements
    /// collected so far are emitted before `.finished`; when it fails, they are dropped.
    @inlinable
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
    /// The demand it sends upstream is Combine's. With `.byTime`, upstream is asked for one element
    /// at the subscription, then one more for each element it sends, whatever downstream asked for.
    /// With `.byTimeOrCount`, a request for `n` arrays asks upstream for `n * count` elements, and so
    /// does demand downstream returns for an array that a full count closed; demand it returns for
    /// an array the timer closed is ignored (current Combine; older versions honoured it).
    @frozen
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
        @inlinable
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription: CollectByTimeSubscription<Upstream.Output, Context, S>
            switch strategy {
            case .byTime(let scheduler, let interval):
                subscription = CollectByTimeSubscription(
                    scheduler: scheduler, interval: interval, limit: nil, options: options, downstream: subscriber)
            case .byTimeOrCount(let scheduler, let interval, let count):
                subscription = CollectByTimeSubscription(
                    scheduler: scheduler, interval: interval, limit: Swift.max(count, 1), options: options,
                    downstream: subscriber)
            }
            upstream.subscribe(subscription)
        }
    }
}

/// The windows of `collect(.byTime…)` as a plain value: what upstream, the timer and downstream
/// do to it, each step saying what the caller must do once the lock is released.
@usableFromInline
struct TimeWindows<Element, Failure: Error> {
    @usableFromInline enum Phase: UInt8 {
        case awaitingSubscription
        case active
        /// Upstream has ended: the closed windows go out first, then `ending`.
        case ending
        case done
    }

    @usableFromInline var phase = Phase.awaitingSubscription
    @usableFromInline var upstream: (any Subscription)?
    /// The window being filled.
    @usableFromInline var open: [Element] = []
    /// Closed, non-empty windows waiting for demand: `closed[head...]`, oldest first.
    @usableFromInline var closed: [[Element]] = []
    @usableFromInline var head = 0
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var ending: Subscribers.Completion<Failure>?
    @usableFromInline var timer: (any Cancellable)?
    /// Counts timers; a tick from a replaced timer carries an older epoch and is ignored.
    @usableFromInline var epoch: UInt = 0
    /// The capacity a fresh window reserves.
    @usableFromInline let reserve: Int

    @inlinable init(reserve: Int) {
        self.reserve = reserve
        open.reserveCapacity(reserve)
    }

    @inlinable var hasClosed: Bool { head < closed.count }

    /// Closes the open window if it holds anything.
    @inlinable
    mutating func closeWindow() {
        guard !open.isEmpty else { return }
        var fresh: [Element] = []
        fresh.reserveCapacity(reserve == 0 ? open.count : reserve)
        swap(&fresh, &open)
        closed.append(fresh)
    }

    /// The oldest closed window, if downstream has demand for it.
    @inlinable
    mutating func takeDeliverable() -> [Element]? {
        guard hasClosed, demand > 0 else { return nil }
        demand -= 1
        let window = closed[head]
        closed[head] = []
        head += 1
        if head == closed.count {
            closed.removeAll(keepingCapacity: true)
            head = 0
        }
        return window
    }

    /// Starts a timer epoch; returns the timer it replaces, for the caller to cancel.
    @inlinable
    mutating func nextEpoch() -> (any Cancellable)? {
        epoch &+= 1
        defer { timer = nil }
        return timer
    }

    /// Ends the stream; returns the upstream (to cancel, from downstream's side) and the timer to cancel.
    @inlinable
    mutating func terminate() -> (upstream: (any Subscription)?, timer: (any Cancellable)?) {
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        open = []
        closed = []
        head = 0
        ending = nil
        return (live, nextEpoch())
    }
}

/// Upstream appends to the open window under the lock (the one place the upstream's thread and the
/// scheduler's meet per value); everything downstream hears is delivered on the scheduler.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of it.
/// Upstream goes when it completes or is cancelled, the window timer is cancelled then; a timer or
/// drain action already on its way holds this object until it runs, but no longer downstream.
@usableFromInline
final class CollectByTimeSubscription<Element, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    Introspected
where Downstream.Input == [Element] {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let scheduler: Context
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    /// `count` for `.byTimeOrCount`; nil for `.byTime`.
    @usableFromInline let limit: Int?
    @usableFromInline let options: Context.SchedulerOptions?
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var windows: TimeWindows<Element, Failure>

    @inlinable
    init(
        scheduler: Context, interval: Context.SchedulerTimeType.Stride, limit: Int?, options: Context.SchedulerOptions?,
        downstream: Downstream
    ) {
        self.scheduler = scheduler
        self.interval = interval
        self.limit = limit
        self.options = options
        self.downstream = Releasable(downstream)
        windows = TimeWindows(reserve: limit ?? 0)
        lifetime = Lifetime { unsafeDowncast($0, to: CollectByTimeSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "CollectByTime" }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard windows.phase == .awaitingSubscription else {
            lock.unlock()
            return subscription.cancel()
        }
        windows.phase = .active
        windows.upstream = subscription
        lock.unlock()
        startWindow()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        // `.byTime` asks for one value, then one more per value (`receive(_:)`), as Combine's does.
        if limit == nil { subscription.request(.max(1)) }
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        lock.lock()
        guard windows.phase == .active else {
            lock.unlock()
            return .none
        }
        windows.open.append(input)
        guard let limit else {
            lock.unlock()
            return .max(1)
        }
        guard windows.open.count >= limit else {
            lock.unlock()
            return .none
        }
        windows.closeWindow()
        lock.unlock()
        // A full window ends early: the next one starts now.
        startWindow()
        scheduler.schedule(options: options) { self.drain() }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard windows.phase == .active else {
            lock.unlock()
            return
        }
        if case .finished = completion {
            windows.closeWindow()
        } else {
            windows.open = []
            windows.closed = []
            windows.head = 0
        }
        windows.phase = .ending
        windows.ending = completion
        // Upstream is done: nothing more goes to it (demand in `ending` is counted, not passed on).
        windows.upstream = nil
        let stale = windows.nextEpoch()
        lock.unlock()
        stale?.cancel()
        scheduler.schedule(options: options) { self.drain() }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero(on: description)
        lock.lock()
        guard windows.phase == .active || windows.phase == .ending else {
            lock.unlock()
            return
        }
        windows.demand += demand
        let live = windows.phase == .active ? windows.upstream : nil
        let owed = windows.hasClosed
        lock.unlock()
        if let limit { live?.request(demand * limit) }
        if owed { scheduler.schedule(options: options) { self.drain() } }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let (live, stale) = windows.terminate()
        lock.unlock()
        stale?.cancel()
        live?.cancel()
        lifetime.end(self)
    }

    // MARK: On the scheduler

    @inlinable
    func windowEnded(epoch: UInt) {
        lock.lock()
        guard epoch == windows.epoch, windows.phase == .active else {
            lock.unlock()
            return
        }
        windows.closeWindow()
        let owed = windows.hasClosed
        lock.unlock()
        // Combine's `.byTimeOrCount` ignores the demand returned for a window its timer closed.
        if owed { drain(ignoringReturnedDemand: limit != nil) }
    }

    /// Delivers closed windows while downstream has demand; then the completion, once none is left.
    /// `ignoringReturnedDemand`: what downstream returns from `receive(_:)` is not counted.
    @inlinable
    func drain(ignoringReturnedDemand: Bool = false) {
        while true {
            lock.lock()
            if let window = windows.takeDeliverable() {
                lock.unlock()
                let more = lifetime.call(self) { downstream.with { $0.receive(window) } } ?? .none
                guard more != .none, !ignoringReturnedDemand else { continue }
                lock.lock()
                let running = windows.phase == .active || windows.phase == .ending
                if running { windows.demand += more }
                let live = windows.phase == .active ? windows.upstream : nil
                lock.unlock()
                if let limit { live?.request(more * limit) }
                continue
            }
            guard windows.phase == .ending, !windows.hasClosed, let completion = windows.ending else {
                lock.unlock()
                return
            }
            windows.phase = .done
            windows.ending = nil
            lock.unlock()
            lifetime.call(self) {
                guard lifetime.end() else { return }
                downstream.with { $0.receive(completion: completion) }
            }
            return
        }
    }

    /// Starts a new window `interval` long: a repeating timer replaces the running one.
    @inlinable
    func startWindow() {
        lock.lock()
        guard windows.phase == .active else {
            lock.unlock()
            return
        }
        let stale = windows.nextEpoch()
        let epoch = windows.epoch
        lock.unlock()
        stale?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { self.windowEnded(epoch: epoch) }
        lock.lock()
        guard epoch == windows.epoch, windows.phase == .active else {
            lock.unlock()
            return token.cancel()
        }
        windows.timer = token
        lock.unlock()
    }
}
