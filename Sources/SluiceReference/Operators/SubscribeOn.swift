// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    ///
    /// Subscribing to the upstream publisher, each request and the cancel run in actions
    /// scheduled on `scheduler`, one at a time and in the order they were made, even on a
    /// concurrent scheduler. Values and the completion pass through on whatever thread the
    /// upstream sends them.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
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
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = upstream
            scheduler.schedule(options: options) { upstream.subscribe(subscription) }
        }
    }
}

/// The subscription of `subscribe(on:)`.
///
/// Downstream gets this subscription as soon as upstream's arrives (on the scheduler, since the
/// subscribe ran there). Every request and the cancel wait in a `Hop` and are scheduled, one
/// action each; an action makes the oldest call waiting, so they reach upstream one at a time and
/// in the order they were made, even on a concurrent scheduler: a request made before a cancel
/// still arrives, then the cancel, and nothing after it. Values and the completion pass straight
/// through until the stream ends or is cancelled.
///
/// Lifetimes: downstream lives in the state until the stream ends; the call that ends it takes it
/// out under the lock and drops it after. A scheduled call holds only the hop, and through it the
/// upstream subscription until the call is made.
private final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    /// A call to upstream, waiting for its action.
    private enum Call {
        case request(any Subscription, Subscribers.Demand)
        case cancel(any Subscription)

        func make() {
            switch self {
            case .request(let upstream, let demand): upstream.request(demand)
            case .cancel(let upstream): upstream.cancel()
            }
        }
    }

    private let lock = Lock()
    private var state: State
    /// Downstream's calls to upstream, until their actions make them.
    private let hop: Hop<Call>
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = .awaitingSubscription(downstream)
        hop = Hop(lock: lock)
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "SubscribeOn" }

    // MARK: From upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .subscribed(downstream, upstream: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let downstream, _) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .subscribed(let downstream, _) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: completion)
    }

    // MARK: From downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .subscribed(_, let upstream) = state else {
            lock.unlock()
            return
        }
        hop.enqueue(.request(upstream, demand))
        lock.unlock()
        scheduleCall()
    }

    func cancel() {
        let previous = lock.withLock {
            switch state {
            case .awaitingSubscription:
                return exchange(&state, with: .abandoned)
            case .subscribed(_, let upstream):
                // The last call: requests made after it are not enqueued.
                hop.enqueue(.cancel(upstream))
                return exchange(&state, with: .terminated)
            case .terminated, .abandoned:
                return exchange(&state, with: .terminated)
            }
        }
        guard case .subscribed = previous else { return }
        scheduleCall()
    }

    /// Schedules the action of the call just enqueued.
    private func scheduleCall() {
        let hop = hop
        scheduler.schedule(options: options) { hop.run { $0.make() } }
    }
}
