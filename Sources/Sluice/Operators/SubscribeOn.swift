// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    ///
    /// Subscribing to the upstream publisher, each request and the cancel run in actions
    /// scheduled on `scheduler`, one at a time and in the order they were made, even on a
    /// concurrent scheduler. Values and the completion pass through on whatever thread the
    /// upstream sends them.
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    @frozen
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher should use to receive elements.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that receives elements from an upstream publisher on a specific scheduler.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = upstream
            scheduler.schedule(options: options) { upstream.subscribe(inner) }
        }
    }
}

/// The subscription of `subscribe(on:)`.
///
/// Requests and the cancel become scheduled actions, one each, made in call order; each makes the
/// oldest call waiting (a `HopQueue`), so upstream hears them one at a time and in the order they
/// were made, a request made before a cancel before that cancel, even from a concurrent scheduler. Values pass straight through, checked against one atomic
/// flag (no lock per value); `live` turns off synchronously at a cancel or at the completion.
///
/// Lifetimes: downstream is used only inside calls through `lifetime`; the completion's delivery
/// or a cancel (even one before upstream's subscription arrived) ends it, and the last call in
/// flight, or the cancel when none is, lets go of downstream. The upstream subscription is let go
/// of at the end too (a scheduled request or cancel holds it until it runs).
@usableFromInline
final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    Hopping, Introspected
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// A call to upstream's subscription, on its way to the scheduler.
    @usableFromInline enum Signal {
        case request(any Subscription, Subscribers.Demand)
        case cancel(any Subscription)
    }

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    /// True from upstream's subscription to the completion or the cancel; written under `lock`.
    @usableFromInline let live = Atomic<Bool>(false)
    @usableFromInline let lock = Lock()
    /// Upstream's subscription while live; nil before it and after the end.
    @exclusivity(unchecked)
    @usableFromInline var upstream: (any Subscription)?
    /// Set once the stream has ended (or was cancelled before it began): a late subscription is refused.
    @exclusivity(unchecked)
    @usableFromInline var ended = false
    /// Set by a cancel that came before upstream's subscription: as Combine's, that late
    /// subscription is left alone.
    @exclusivity(unchecked)
    @usableFromInline var cancelledEarly = false
    /// Downstream's requests and cancel waiting for their actions. Guarded by `lock`.
    @exclusivity(unchecked)
    @usableFromInline var calls = HopQueue<Signal>()

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = Releasable(downstream)
        self.scheduler = scheduler
        self.options = options
        lifetime = Lifetime { unsafeDowncast($0, to: SubscribeOnSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "SubscribeOn" }

    // MARK: From upstream (on the scheduler, for the subscription)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil && !ended else {
            let leftAlone = cancelledEarly
            lock.unlock()
            if !leftAlone { subscription.cancel() }
            return
        }
        upstream = subscription
        live.store(true, ordering: .releasing)
        lock.unlock()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lifetime.call(self) {
            live.load(ordering: .acquiring) ? downstream.with { $0.receive(input) } : .none
        } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard takeUpstream() != nil else { return }
        lifetime.call(self) {
            guard lifetime.end() else { return }
            downstream.with { $0.receive(completion: completion) }
        }
    }

    /// Ends the stream: hands back upstream's subscription if it was live (the caller then owns
    /// the ending), nil if the stream had already ended.
    @inlinable
    func takeUpstream(byCancel: Bool = false) -> (any Subscription)? {
        lock.lock()
        if byCancel && upstream == nil && !ended { cancelledEarly = true }
        let current = upstream
        upstream = nil
        ended = true
        live.store(false, ordering: .releasing)
        if byCancel, let current { calls.append(.cancel(current)) }
        lock.unlock()
        return current
    }

    // MARK: On the scheduler

    @inlinable
    func withHop<Result>(_ body: (inout HopQueue<Signal>) -> Result) -> Result { lock.withLock { body(&calls) } }

    @inlinable
    func perform(_ signal: consuming Signal) {
        switch signal {
        case .request(let target, let demand): target.request(demand)
        case .cancel(let target): target.cancel()
        }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let queued = lock.withLock { () -> Bool in
            guard let upstream else { return false }
            calls.append(.request(upstream, demand))
            return true
        }
        if queued { scheduler.schedule(options: options) { self.hop() } }
    }

    @inlinable
    func cancel() {
        if takeUpstream(byCancel: true) != nil {
            scheduler.schedule(options: options) { self.hop() }
        }
        // Also a cancel before upstream's subscription came: the stream ends here either way.
        lifetime.end(self)
    }
}
