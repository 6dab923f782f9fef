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
    /// The demand it sends upstream is Combine's. With `.byTime`, each request from downstream asks
    /// upstream for one element, and each element it sends for one more, whatever downstream asked
    /// for. With `.byTimeOrCount`, a request for `n` arrays asks upstream for `n * count` elements,
    /// and so does demand downstream returns for an array that a full count closed; demand it
    /// returns for an array the timer closed counts downstream but asks upstream for nothing
    /// (Combine since macOS 11.3 and iOS 14.5), and every element returns no demand.
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

/// Upstream appends to the open window under the lock (the one place the upstream's thread and the
/// scheduler's meet per value); everything downstream hears is delivered on the scheduler, by the
/// holder of the state's delivering turn.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of it.
/// Upstream goes when it completes or is cancelled, the window timer is cancelled then; a timer or
/// delivery already on its way holds this object until it runs, but no longer downstream.
@usableFromInline
final class CollectByTimeSubscription<Element, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    SerialDelivering, Introspected
where Downstream.Input == [Element] {
    @usableFromInline typealias Value = [Element]
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = CollectByTimeState<Element, Failure>

    @usableFromInline let scheduler: Context
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let options: Context.SchedulerOptions?
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable
    init(
        scheduler: Context, interval: Context.SchedulerTimeType.Stride, limit: Int?, options: Context.SchedulerOptions?,
        downstream: Downstream
    ) {
        self.scheduler = scheduler
        self.interval = interval
        self.options = options
        self.downstream = Releasable(downstream)
        self.limit = limit
        state = State(limit: limit)
        lifetime = Lifetime { unsafeDowncast($0, to: CollectByTimeSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "CollectByTime" }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    /// `count` for `.byTimeOrCount`; nil for `.byTime`. A `let` of its own, read without the lock
    /// (read through `state`, it would be an access to a variable other threads change under it).
    @usableFromInline let limit: Int?

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard withState({ $0.upstreamArrived(subscription) }) else { return subscription.cancel() }
        startWindow()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        let (accepted, filled) = withState { $0.received(input) }
        guard accepted else { return .none }
        if filled {
            // A full window ends early: the next one starts now.
            startWindow()
            scheduleDelivery()
        }
        return limit == nil ? .max(1) : .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard case .deliver(let stale) = withState({ $0.upstreamCompleted(completion) }) else { return }
        stale?.cancel()
        scheduleDelivery()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let (upstream, delivers) = withState { $0.requested(demand) }
        // `.byTime` asks for one element per request, then one more per element (`receive(_:)`),
        // as Combine's does.
        upstream?.request(limit.map { demand * $0 } ?? .max(1))
        if delivers { scheduleDelivery() }
    }

    @inlinable
    func cancel() {
        let (upstream, timer) = withState { $0.cancelled() }
        timer?.cancel()
        upstream?.cancel()
        lifetime.end(self)
    }

    // MARK: On the scheduler

    /// Starts a new window `interval` long: a repeating timer replaces the running one.
    @inlinable
    func startWindow() {
        guard let (stale, epoch) = withState({ $0.windowStarts() }) else { return }
        stale?.cancel()
        let token = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { self.windowEnded(epoch: epoch) }
        if !withState({ $0.windowTimerScheduled(token, epoch: epoch) }) { token.cancel() }
    }

    @inlinable
    func windowEnded(epoch: UInt) {
        // Combine's `.byTimeOrCount` asks upstream for nothing for a window its timer closed.
        if withState({ $0.windowEnded(epoch: epoch) }) { deliverClosed(keepingAnswersDownstream: true) }
    }

    @inlinable
    func scheduleDelivery() {
        scheduler.schedule(options: options) { self.deliverClosed(keepingAnswersDownstream: false) }
    }

    /// Delivers closed windows while downstream has demand, then the completion once none is left,
    /// unless another call holds the turn (it picks up what waits).
    @inlinable
    func deliverClosed(keepingAnswersDownstream: Bool) {
        guard let first = withState({ $0.deliveryStarts(keepingAnswersDownstream: keepingAnswersDownstream) })
        else { return }
        lifetime.call(self) { drain(first) }
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    @inlinable
    func deliver(_ value: [Element]) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { withState { $0.nextDelivery(adding: more) } }

    @inlinable
    func callOut(_ callout: State.Callout) -> State.Step {
        callout.upstream.request(callout.demand)
        return withState { $0.nextDelivery(adding: .none) }
    }

    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }
}
