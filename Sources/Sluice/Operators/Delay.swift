// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    ///
    /// Each value and the completion (a failure too) is delivered on `scheduler`, `interval` after it
    /// arrived. Demand passes straight through: downstream's requests go upstream as they are, and so
    /// does the demand downstream returns for each delayed value. Nothing is delivered after a cancel.
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride
        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// The scheduler to deliver the delayed events.
        public let scheduler: Context
        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the downstream receiver.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DelaySubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `delay`.
///
/// A value costs one scheduled closure and, on the way in and out, one atomic load of the status;
/// the lock is taken only to reach the upstream subscription (a request, a cancel, demand returned
/// by downstream), where downstream's thread and the scheduler's meet.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the delayed completion's
/// delivery or a cancel ends it, and the last call in flight, or the cancel when none is, lets go
/// of downstream. A delayed value or completion still scheduled holds this object until it runs,
/// but no longer downstream.
@usableFromInline
final class DelaySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    /// Upstream completed; its completion is on its way. Values already scheduled still go out,
    /// and the demand they return still goes upstream, as in Combine.

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let interval: Context.SchedulerTimeType.Stride
    @usableFromInline let tolerance: Context.SchedulerTimeType.Stride
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
        self.downstream = Releasable(downstream)
        interval = publisher.interval
        tolerance = publisher.tolerance
        scheduler = publisher.scheduler
        options = publisher.options
        lifetime = Lifetime { unsafeDowncast($0, to: DelaySubscription.self).downstream.release() }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard slot.attachOrCancelLate(subscription) else { return }
        // The subscription itself is not delayed.
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard slot.status.load(ordering: .acquiring) == .active else { return .none }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options) {
            self.deliver(input)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard
            slot.status.compareExchange(expected: .active, desired: .finishing, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options) {
            self.finish(completion)
        }
    }

    @inlinable
    func deliver(_ input: Input) {
        let more =
            lifetime.call(self) {
                slot.status.load(ordering: .acquiring) != .ended ? downstream.with { $0.receive(input) } : .none
            } ?? .none
        guard more != .none else { return }
        slot.lock.lock()
        let upstream = slot.upstream
        slot.lock.unlock()
        upstream?.request(more)
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard
            slot.status.compareExchange(expected: .finishing, desired: .ended, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        slot.lock.lock()
        slot.upstream = nil
        slot.lock.unlock()
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        slot.lock.lock()
        let upstream = slot.upstream
        slot.lock.unlock()
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        // A completed upstream (`finishing`) has nothing to cancel.
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }
}
