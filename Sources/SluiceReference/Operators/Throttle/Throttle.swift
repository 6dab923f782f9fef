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
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ThrottleSubscription(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `throttle`.
///
/// At most one delivery is scheduled at a time. It carries the value chosen so far and, if upstream
/// completed while it waited, the completion, which follows the value. What it decides to deliver
/// waits in a `Hop`, and the delivery makes one run for each: a delivery scheduled while an earlier
/// one is still in downstream's `receive` (a concurrent scheduler) leaves its value and completion
/// to it, so they reach downstream one at a time and in order. A cancel empties the hop.
///
/// Lifetimes: downstream lives in the state. The scheduled delivery holds this subscription until
/// it runs, but not downstream: a cancel lets go of downstream (and the chosen and decided values)
/// at once, and the delivery of the completion takes downstream out.
private final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        /// Upstream completed; the completion waits in `completion` for the scheduled delivery.
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
    /// What the scheduled deliveries decided to deliver, until it is delivered.
    private let hop: Hop<Event>
    /// Requested by downstream and not yet delivered.
    private var demand = Subscribers.Demand.none
    /// When the last value was delivered; nil before the first.
    private var lastDelivery: Context.SchedulerTimeType?
    /// Whether a delivery is scheduled and has not run yet.
    private var deliveryScheduled = false
    /// The value the scheduled delivery will deliver.
    private var chosen: Input?
    /// Upstream's completion, once it has arrived.
    private var completion: Subscribers.Completion<Failure>?

    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let latest: Bool

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        state = .awaitingSubscription(downstream)
        hop = Hop(lock: lock)
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
        // Combine reads the clock when the subscriber is made, and while the stream is live, when
        // the subscription, each value and the completion come and at each delivery (OpenCombine's
        // ThrottleTests record every call on the scheduler). The reference reads it at the same
        // points, under the lock: the clock is a read, it never calls back.
        _ = scheduler.now
    }

    var description: String { "Throttle" }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        _ = scheduler.now  // as Combine's (see init)
        state = .subscribed(downstream, upstream: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        let now = scheduler.now
        if deliveryScheduled {
            if latest { chosen = input }
            lock.unlock()
            return .none
        }
        guard demand > 0 else {
            // Nobody asked for it: dropped, as Combine drops it.
            lock.unlock()
            return .none
        }
        chosen = input
        deliveryScheduled = true
        let earliest = lastDelivery.map { $0.advanced(by: interval) }
        lock.unlock()
        if let earliest, now < earliest {
            scheduler.schedule(after: earliest, tolerance: scheduler.minimumTolerance, options: nil) { self.deliver() }
        } else {
            scheduler.schedule(options: nil) { self.deliver() }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps the upstream subscription until the lock is released.
        let previous = state
        guard case .subscribed(let downstream, _) = previous else {
            lock.unlock()
            return
        }
        _ = scheduler.now  // as Combine's (see init)
        state = .completing(downstream)
        self.completion = completion
        let waiting = deliveryScheduled
        deliveryScheduled = true
        lock.unlock()
        // A waiting delivery takes the completion with it.
        if !waiting {
            scheduler.schedule(options: nil) { self.deliver() }
        }
    }

    // MARK: Scheduler

    /// The scheduled delivery: decides what goes downstream, then makes a run of the hop for each.
    private func deliver() {
        lock.lock()
        // A completion that arrived before this delivery ran is carried by it; one that arrives
        // while it runs (from inside downstream's `receive`) has scheduled a delivery of its own.
        let carried: Subscribers.Completion<Failure>?
        switch state {
        case .subscribed:
            carried = nil
        case .completing:
            carried = completion
            completion = nil
        case .awaitingSubscription, .terminated:
            lock.unlock()
            return
        }
        // The clock matters only while upstream is live: a delivery that carries the completion
        // is the last one (and Combine does not read it then).
        let now = carried == nil ? scheduler.now : nil
        deliveryScheduled = false
        let value = chosen
        chosen = nil
        var runs = 0
        if let value, demand > 0 {
            demand -= 1
            if let now { lastDelivery = now }
            hop.enqueue(.value(value))
            runs += 1
        }
        if let carried {
            hop.enqueue(.completion(carried))
            runs += 1
        }
        lock.unlock()
        // A value nobody asked for is dropped here, outside the lock.
        withExtendedLifetime(value) {}
        for _ in 0..<runs { hop.run(deliver) }
    }

    /// Delivers the oldest event waiting (the hop's turn), which may not be one this delivery
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
            // Not after a cancel from inside downstream's `receive` (the cancel emptied the hop),
            // nor twice.
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
        lock.lock()
        switch state {
        case .subscribed, .completing: self.demand += demand
        case .awaitingSubscription, .terminated: break
        }
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        // `previous` and `dropped` keep downstream and the chosen value until the lock is released.
        let previous = state
        let dropped = (chosen, hop.removeAll())
        state = .terminated
        chosen = nil
        completion = nil
        lock.unlock()
        if case .subscribed(_, let upstream) = previous { upstream.cancel() }
        withExtendedLifetime(dropped) {}
    }
}
