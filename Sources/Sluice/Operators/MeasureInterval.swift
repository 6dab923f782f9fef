// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream publisher.
    ///
    /// Each upstream value is replaced by the stride from the previous value (from the subscription,
    /// for the first one), read from `scheduler.now`. The values themselves are ignored; completion
    /// passes through. Nothing is scheduled: `options` is accepted for Combine's signature only.
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    @frozen
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Context.SchedulerTimeType.Stride
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events received
        /// from an upstream publisher.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                MeasureIntervalSubscription<Upstream.Output, Context, S>(scheduler: scheduler, downstream: subscriber))
        }
    }
}

/// The per-value path touches no lock: the last instant belongs to upstream's serial signals, and
/// one atomic flag says whether the stream still runs. The lock guards only the upstream
/// subscription, where downstream's `request`/`cancel` (any thread) meet upstream's completion.
///
/// Demand downstream returns for an interval goes upstream as a `request`, as in Combine.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of it.
@usableFromInline
final class MeasureIntervalSubscription<Input, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    Introspected
where Downstream.Input == Context.SchedulerTimeType.Stride {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let scheduler: Context
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    /// Set by a cancel that came before upstream's subscription. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var cancelledEarly = false
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let isDone = Atomic<Bool>(false)
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`; nil before the subscription and after the end.
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var hasSubscription = false
    /// Written by upstream's signals only, which are serial.
    @exclusivity(unchecked) @usableFromInline var last: Context.SchedulerTimeType?

    @inlinable
    init(scheduler: Context, downstream: Downstream) {
        self.scheduler = scheduler
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: MeasureIntervalSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "MeasureInterval" }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard !hasSubscription else {
            let leftAlone = cancelledEarly
            lock.unlock()
            // As Combine's, a subscription that comes after a cancel is left alone.
            if !leftAlone { subscription.cancel() }
            return
        }
        hasSubscription = true
        upstream = subscription
        lock.unlock()
        last = scheduler.now
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard !isDone.load(ordering: .acquiring), let previous = last else { return .none }
        let now = scheduler.now
        last = now
        let more = lifetime.call(self) { downstream.with { $0.receive(previous.distance(to: now)) } } ?? .none
        if more != .none {
            lock.lock()
            let live = upstream
            lock.unlock()
            live?.request(more)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard upstream != nil else {
            lock.unlock()
            return
        }
        upstream = nil
        isDone.store(true, ordering: .releasing)
        lock.unlock()
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let live = upstream
        lock.unlock()
        live?.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        if !hasSubscription { cancelledEarly = true }
        let live = upstream
        upstream = nil
        hasSubscription = true
        isDone.store(true, ordering: .releasing)
        lock.unlock()
        live?.cancel()
        lifetime.end(self)
    }
}
