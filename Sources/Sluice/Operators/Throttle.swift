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

/// The subscriber to upstream and the subscription downstream of `throttle`.
///
/// One `Lock` guards the window: upstream's thread picks the value, the scheduler's delivers it,
/// downstream's adds demand or cancels. At most one delivery is scheduled at a time (`slot` holds
/// what it will deliver); values arriving meanwhile only update the slot, so a burst costs no
/// scheduling at all.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of
/// downstream. A scheduled delivery holds this object until it runs, but no longer downstream.
@usableFromInline
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline enum Phase: UInt8 {
        case awaiting
        case active
        /// Upstream completed; `ending` waits for the scheduled delivery.
        case completing
        case done
    }

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let scheduler: Context
    @usableFromInline let keepsLatest: Bool
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var phase = Phase.awaiting
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// True from scheduling a delivery until it runs.
    @exclusivity(unchecked) @usableFromInline var scheduled = false
    /// The value the scheduled delivery will deliver.
    @exclusivity(unchecked) @usableFromInline var slot: Input?
    /// Upstream's completion, for the delivery that carries it.
    @exclusivity(unchecked) @usableFromInline var ending: Subscribers.Completion<Failure>?
    /// The instant of the last delivered value; nil before the first.
    @exclusivity(unchecked) @usableFromInline var lastDelivered: Context.SchedulerTimeType?

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
        self.downstream = Releasable(downstream)
        interval = publisher.interval
        scheduler = publisher.scheduler
        keepsLatest = publisher.latest
        lifetime = Lifetime { unsafeDowncast($0, to: ThrottleSubscription.self).downstream.release() }
        // Combine reads the clock when the subscriber is made, and while the stream is live, when
        // the subscription, each value and the completion come and at each delivery (OpenCombine's
        // ThrottleTests record every call on the scheduler). Sluice reads it at the same points,
        // under the lock where a state decides it: the clock is a read, it never calls back.
        _ = scheduler.now
    }

    @usableFromInline var description: String { "Throttle" }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase == .awaiting else {
            lock.unlock()
            subscription.cancel()
            return
        }
        _ = scheduler.now  // as Combine's (see init)
        phase = .active
        upstream = subscription
        lock.unlock()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard phase == .active else {
            lock.unlock()
            return .none
        }
        let now = scheduler.now
        if scheduled {
            if keepsLatest { slot = input }
            lock.unlock()
            return .none
        }
        // No delivery waiting and no demand: the value is dropped, as in Combine.
        guard demand != .none else {
            lock.unlock()
            return .none
        }
        slot = input
        scheduled = true
        let opens = lastDelivered?.advanced(by: interval)
        lock.unlock()
        if let opens, opens > now {
            scheduler.schedule(after: opens, tolerance: scheduler.minimumTolerance, options: nil) { self.deliver() }
        } else {
            scheduler.schedule(options: nil) { self.deliver() }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard phase == .active else {
            lock.unlock()
            return
        }
        _ = scheduler.now  // as Combine's (see init)
        phase = .completing
        upstream = nil
        ending = completion
        let riding = scheduled
        scheduled = true
        lock.unlock()
        // A delivery already waiting carries the completion after its value.
        if !riding { scheduler.schedule(options: nil) { self.deliver() } }
    }

    @inlinable
    func deliver() {
        lock.lock()
        guard phase == .active || phase == .completing else {
            lock.unlock()
            return
        }
        // The clock matters only while upstream is live: a delivery that carries the completion
        // is the last one (and Combine does not read it then).
        let now = phase == .active ? scheduler.now : nil
        // Only a completion that was here before this delivery ran rides on it; one that arrives
        // from inside downstream's `receive` scheduled its own.
        let carried = phase == .completing ? ending : nil
        scheduled = false
        let value = slot
        slot = nil
        let emits = value != nil && demand != .none
        if emits {
            demand -= 1
            if let now { lastDelivered = now }
        }
        lock.unlock()
        if emits, let value {
            let more = lifetime.call(self) { downstream.with { $0.receive(value) } } ?? .none
            if more != .none {
                lock.lock()
                if phase == .active { demand += more }
                lock.unlock()
            }
        }
        guard let carried else { return }
        lock.lock()
        guard phase == .completing else {
            // Cancelled from inside downstream's `receive`.
            lock.unlock()
            return
        }
        phase = .done
        ending = nil
        lock.unlock()
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: carried) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        if phase == .active || phase == .completing { self.demand += demand }
        lock.unlock()
    }

    @inlinable
    func cancel() {
        lock.lock()
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        slot = nil
        ending = nil
        lock.unlock()
        live?.cancel()
        lifetime.end(self)
    }
}
