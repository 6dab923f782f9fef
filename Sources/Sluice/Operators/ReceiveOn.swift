// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Each value and the completion are delivered downstream from an action scheduled on
    /// `scheduler`; the subscription itself, and downstream's requests and cancel, pass through
    /// at once. Operators before this one are unaffected.
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

/// The subscription of `receive(on:)`: a hop onto the scheduler for every value and the completion.
///
/// Per value: one relaxed load of the status, one scheduled closure (capturing this object and the
/// value, nothing else), and in that closure one acquiring load before downstream is called. No
/// lock and no allocation beyond the closure: the lock guards only the upstream slot, which
/// subscription, request, cancel and the end of the stream touch.
///
/// The slot's states: `awaiting` the subscription, `active`, `finishing` (upstream has completed and
/// the completion is scheduled: values scheduled before it still arrive and their demand still goes
/// upstream; a cancel has nothing left to stop), `ended` (delivered, or cancelled: scheduled values
/// find it and are dropped), `abandoned` (cancelled before upstream's subscription came).
///
/// Lifetimes: downstream is used only inside calls through `lifetime` (the subscription, each
/// delivery, the completion); the completion's delivery or a cancel ends it, and the last call in
/// flight (or the cancel, when none is) lets go of downstream. A scheduled delivery still holds this
/// object until it runs, but no longer downstream. A cancel while `finishing` ends nothing: the
/// completion on its way is still delivered (as in Combine), and its delivery ends the lifetime.
@usableFromInline
final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber,
    Subscription, Introspected
{
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = Releasable(downstream)
        self.scheduler = scheduler
        self.options = options
        lifetime = Lifetime { unsafeDowncast($0, to: ReceiveOnSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "ReceiveOn" }

    // MARK: From upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard slot.attachOrCancelLate(subscription) else { return }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Upstream sends serially; a cancel racing this load is caught again in `deliver`.
        guard slot.status.load(ordering: .relaxed) == .active else { return .none }
        scheduler.schedule(options: options) { self.deliver(input) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return
        }
        slot.status.store(.finishing, ordering: .releasing)
        slot.lock.unlock()
        scheduler.schedule(options: options) { self.finish(completion) }
    }

    // MARK: On the scheduler

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

    /// Passes demand upstream while the stream is active or finishing.
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

    @inlinable
    func cancel() {
        slot.lock.lock()
        let current = slot.status.load(ordering: .relaxed)
        guard current == .active || current == .awaiting else {
            // Completing: the completion is on its way and upstream is finished; nothing to stop.
            slot.lock.unlock()
            return
        }
        slot.status.store(current == .awaiting ? .abandoned : .ended, ordering: .releasing)
        let cancelled = slot.upstream
        slot.upstream = nil
        slot.lock.unlock()
        cancelled?.cancel()
        lifetime.end(self)
    }
}
