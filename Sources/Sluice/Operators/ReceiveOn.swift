// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Each value and the completion are delivered downstream from an action scheduled on
    /// `scheduler`; the subscription itself, and downstream's requests and cancel, pass through
    /// at once. Operators before this one are unaffected. On a concurrent scheduler too, values
    /// arrive one at a time, in the order they were sent, and all before the completion.
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    @frozen
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher is to use for element delivery.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers elements to its downstream subscriber on a specific scheduler.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

/// The subscription of `receive(on:)`, and of `delay` (`Kind` tells them apart, for the
/// description only `receive(on:)`'s has): a hop onto the scheduler for every value and the
/// completion, through a `HopQueue` so that a concurrent scheduler keeps their order. One final
/// class, so that the user's module calls its methods specialised (a subclass's calls would go
/// through the base class's vtable, to its unspecialised bodies).
///
/// Per value: under the slot's lock, the value joins the queue; one scheduled closure (capturing
/// this object, nothing else); in it, the lock again to take the oldest value and the turn, and
/// once more to give the turn back. On a serial scheduler each action delivers its own value.
///
/// The slot's states: `awaiting` the subscription, `active`, `finishing` (upstream has completed and
/// the completion waits in the queue behind the values: they still arrive and their demand still
/// goes upstream), `ended` (delivered, or cancelled: the queue is emptied and actions still to run
/// find nothing), `abandoned` (cancelled before upstream's subscription came).
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel ends it, and the last call in flight, or the cancel when none is, lets go of it.
/// Upstream goes when the completion is delivered or at a cancel. A scheduled action holds this
/// object until it runs, but no longer downstream or a value.
@usableFromInline
final class HopSubscription<Downstream: Subscriber, Context: Scheduler, Kind: HopKind>: Subscriber, Subscription,
    Hopping
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias Signal = Hopped<Input, Failure>

    @usableFromInline let slot = UpstreamSlot<Never>()
    /// Guarded by `slot.lock`.
    @exclusivity(unchecked) @usableFromInline var queue = HopQueue<Signal>()
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    /// `delay`'s interval and tolerance; nil for `receive(on:)`.
    @usableFromInline let delay:
        (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?

    @inlinable
    init(
        downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
        delay: (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)? = nil
    ) {
        self.downstream = Releasable(downstream)
        self.scheduler = scheduler
        self.options = options
        self.delay = delay
        lifetime = Lifetime { unsafeDowncast($0, to: HopSubscription.self).downstream.release() }
    }

    @inlinable
    func withHop<Result>(_ body: (inout HopQueue<Signal>) -> Result) -> Result { slot.lock.withLock { body(&queue) } }

    /// Schedules one run of the queue: now, or `delay`'s interval from now.
    @inlinable
    func scheduleHop() {
        if let delay {
            scheduler.schedule(
                after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance, options: options
            ) { self.hop() }
        } else {
            scheduler.schedule(options: options) { self.hop() }
        }
    }

    // MARK: From upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard slot.attachOrCancelLate(subscription) else { return }
        // The subscription itself is not scheduled.
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let queued = withHop { queue -> Bool in
            guard slot.status.load(ordering: .relaxed) == .active else { return false }
            queue.append(.value(input))
            return true
        }
        if queued { scheduleHop() }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let queued = withHop { queue -> Bool in
            guard slot.status.load(ordering: .relaxed) == .active else { return false }
            slot.status.store(.finishing, ordering: .releasing)
            queue.append(.completion(completion))
            return true
        }
        if queued { scheduleHop() }
    }

    // MARK: On the scheduler (the holder of the queue's turn)

    @inlinable
    func perform(_ signal: consuming Signal) {
        switch consume signal {
        case .value(let input): deliver(input)
        case .completion(let completion): finish(completion)
        }
    }

    @inlinable
    func deliver(_ input: Input) {
        let demand =
            lifetime.call(self) {
                slot.status.load(ordering: .acquiring) != .ended ? downstream.with { $0.receive(input) } : .none
            } ?? .none
        if demand != .none { requestUpstream(demand) }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .finishing else {
            slot.lock.unlock()
            return
        }
        slot.status.store(.ended, ordering: .releasing)
        // Let go of upstream: a fused upstream holds its subscriber, and this ends the cycle.
        let finished = slot.upstream
        slot.upstream = nil
        slot.lock.unlock()
        withExtendedLifetime(finished) {
            lifetime.call(self) {
                guard lifetime.end() else { return }
                downstream.with { $0.receive(completion: completion) }
            }
        }
    }

    @inlinable
    func requestUpstream(_ demand: Subscribers.Demand) {
        slot.lock.lock()
        let target = slot.upstream
        slot.lock.unlock()
        target?.request(demand)
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        requestUpstream(demand)
    }

    /// Nothing goes downstream after it, not even a completion already on its way; upstream is
    /// cancelled unless it has finished.
    @inlinable
    func cancel() {
        slot.lock.lock()
        let current = slot.status.load(ordering: .relaxed)
        guard current.isLive else {
            slot.lock.unlock()
            return
        }
        slot.status.store(current == .awaiting ? .abandoned : .ended, ordering: .releasing)
        let cancelled = current == .active ? slot.upstream : nil
        let finished = slot.upstream
        slot.upstream = nil
        let dropped = queue.removeAll()
        slot.lock.unlock()
        withExtendedLifetime((dropped, finished)) {}
        cancelled?.cancel()
        lifetime.end(self)
    }
}

/// Which operator a `HopSubscription` is.
@usableFromInline
protocol HopKind {}

/// `receive(on:)`'s hop.
@usableFromInline
enum ReceiveOnHop: HopKind {}

/// `delay`'s hop.
@usableFromInline
enum DelayHop: HopKind {}

/// `receive(on:)`'s subscription.
@usableFromInline
typealias ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler> = HopSubscription<
    Downstream, Context, ReceiveOnHop
>

/// `receive(on:)`'s subscription describes itself as Combine's does (`delay`'s does not).
extension HopSubscription: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, Introspected
where Kind == ReceiveOnHop {
    @usableFromInline var description: String { "ReceiveOn" }
}
