// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    ///
    /// Each upstream value is replaced by the stride from the previous value (from the subscription,
    /// for the first one), read from `scheduler.now`. The values themselves are ignored; completion
    /// passes through. Nothing is scheduled: `options` is accepted for Combine's signature only.
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events received
        /// from an upstream publisher.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                MeasureIntervalSubscription<Upstream.Output, Context, S>(scheduler: scheduler, downstream: subscriber))
        }
    }
}

/// Remembers the instant of the last event and turns each value into the stride since it.
///
/// The demand downstream returns for an interval is passed upstream as a `request`, not as the
/// return value of `receive(_:)`, as Combine does (its tests see `.requested` for it).
///
/// Lifetimes: downstream lives in the state until the stream ends; the call that ends it takes it
/// out under the lock and drops it after.
private final class MeasureIntervalSubscription<Input, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription,
    Introspected
where Downstream.Input == Context.SchedulerTimeType.Stride {
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        /// `last` is the instant of the subscription or of the last value.
        case active(Downstream, upstream: any Subscription, last: Context.SchedulerTimeType)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    private let scheduler: Context

    init(scheduler: Context, downstream: Downstream) {
        self.scheduler = scheduler
        state = .awaitingSubscription(downstream)
    }

    var description: String { "MeasureInterval" }

    func receive(subscription: any Subscription) {
        let now = scheduler.now
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .active(downstream, upstream: subscription, last: now)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        // As Combine's, the clock is not read for a value that comes after the stream ended.
        let isActive = lock.withLock { if case .active = state { true } else { false } }
        guard isActive else { return .none }
        let now = scheduler.now
        lock.lock()
        guard case .active(let downstream, let upstream, let last) = state else {
            lock.unlock()
            return .none
        }
        state = .active(downstream, upstream: upstream, last: now)
        lock.unlock()
        let more = downstream.receive(last.distance(to: now))
        if more > 0 { request(more) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .active(let downstream, _, _) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .active(_, let upstream, _) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        let previous = lock.withLock {
            if case .awaitingSubscription = state {
                exchange(&state, with: .abandoned)
            } else {
                exchange(&state, with: .terminated)
            }
        }
        if case .active(_, let upstream, _) = previous {
            upstream.cancel()
        }
    }
}
