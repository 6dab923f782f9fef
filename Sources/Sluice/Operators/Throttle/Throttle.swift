// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher in the
    /// specified time interval.
    ///
    /// The first value is delivered at once (on `scheduler`); after a delivery, the next one waits until
    /// `interval` has passed since it. Values arriving while a delivery is waiting are collapsed into
    /// it: the newest replaces it when `latest` is true, otherwise the first is kept. A value that
    /// arrives when downstream has no demand is dropped. Upstream is asked for unlimited demand. A
    /// completion goes out right after a waiting value, or at once (on the scheduler) if none waits.
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the upstream
    /// publisher in a specified time interval.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride
        /// The scheduler on which to publish elements.
        public let scheduler: Context
        /// A Boolean value indicating whether to publish the most recent element.
        public let latest: Bool

        /// Creates a publisher that publishes either the most-recent or first element published by the
        /// upstream publisher in a specified time interval.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ThrottleSubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `throttle`: its state is a
/// `ThrottleState` under one lock, never held while calling out. Upstream's thread picks the value,
/// the scheduler's delivers it, downstream's adds demand or cancels. What a delivery takes (the
/// value, the completion it carries) goes through a `HopQueue`, one at a time and in the order
/// taken, so that deliveries that a concurrent scheduler runs at once do not overlap.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of
/// downstream. A scheduled delivery holds this object until it runs, but no longer downstream.
@usableFromInline
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Hopping, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias State = ThrottleState<Input, Failure, Context>
    @usableFromInline typealias Signal = Hopped<Input, Failure>

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: State
    /// What goes downstream, in the order taken. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var queue = HopQueue<Signal>()

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
        self.downstream = Releasable(downstream)
        state = State(interval: publisher.interval, keepsLatest: publisher.latest, scheduler: publisher.scheduler)
        lifetime = Lifetime { unsafeDowncast($0, to: ThrottleSubscription.self).downstream.release() }
        // Combine reads the clock when the subscriber is made (see `ThrottleState`).
        _ = publisher.scheduler.now
    }

    /// An immutable part of the state: read without the lock.
    @inlinable var scheduler: Context { state.scheduler }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    @usableFromInline var description: String { "Throttle" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard withState({ $0.upstreamArrived(subscription) }) else { return subscription.cancel() }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        switch withState({ $0.received(input) }) {
        case .none:
            break
        case .scheduleNow:
            scheduler.schedule(options: nil) { self.deliver() }
        case .schedule(let opens):
            scheduler.schedule(after: opens, tolerance: scheduler.minimumTolerance, options: nil) { self.deliver() }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // A delivery already waiting carries the completion after its value.
        if withState({ $0.upstreamCompleted(completion) }) { scheduler.schedule(options: nil) { self.deliver() } }
    }

    /// A scheduled delivery: queues what it takes, and runs the queue once for each.
    @inlinable
    func deliver() {
        let runs = lock.withLock { () -> Int in
            let (value, carried) = state.deliveryRuns()
            if let value { queue.append(.value(value)) }
            if let carried { queue.append(.completion(carried)) }
            return (value == nil ? 0 : 1) + (carried == nil ? 0 : 1)
        }
        for _ in 0..<runs { hop() }
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
            guard withState({ $0.completionDue() }) else { return }
            lifetime.call(self) {
                guard lifetime.end() else { return }
                downstream.with { $0.receive(completion: completion) }
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        withState { $0.requested(demand) }
    }

    @inlinable
    func cancel() {
        let (upstream, dropped) = lock.withLock { (state.cancelled(), queue.removeAll()) }
        withExtendedLifetime(dropped) {}
        upstream?.cancel()
        lifetime.end(self)
    }
}
