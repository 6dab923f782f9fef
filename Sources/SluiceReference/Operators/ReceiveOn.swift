// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Each value and the completion are delivered downstream from an action scheduled on
    /// `scheduler`; the subscription itself, and downstream's requests and cancel, pass through
    /// at once. Operators before this one are unaffected. On a concurrent scheduler too, values
    /// arrive one at a time, in the order they were sent, and all before the completion.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
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
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

/// The subscription of `receive(on:)`.
///
/// Upstream's events wait in a `Hop` and are scheduled, one action each; an action delivers the
/// oldest event waiting, so they reach downstream one at a time and in order even on a concurrent
/// scheduler. Requests and cancel go straight upstream. A cancel empties the hop: nothing reaches
/// downstream after it, not even a completion on its way (Combine delivers that one). Once upstream
/// has completed the stream is `completing`: values scheduled before the completion are still
/// delivered and the demand they return still goes upstream (as Combine does).
///
/// Lifetimes: downstream lives in the state. A scheduled action holds this subscription until it
/// runs, but not downstream: a cancel lets go of downstream and of the values waiting at once, and
/// the completion's delivery takes downstream out.
private final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        /// Upstream completed; its completion is scheduled.
        case completing(Downstream, upstream: any Subscription)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private enum Event {
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = Lock()
    private var state: State
    /// Upstream's events, until their actions deliver them.
    private let hop: Hop<Event>
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = .awaitingSubscription(downstream)
        hop = Hop(lock: lock)
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "ReceiveOn" }

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
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        hop.enqueue(.value(input))
        lock.unlock()
        scheduler.schedule(options: options) { self.hop.run(self.deliver) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed(let downstream, let upstream) = state else {
            lock.unlock()
            return
        }
        state = .completing(downstream, upstream: upstream)
        hop.enqueue(.completion(completion))
        lock.unlock()
        scheduler.schedule(options: options) { self.hop.run(self.deliver) }
    }

    // MARK: On the scheduler

    /// Delivers the oldest event waiting (the hop's turn), which may not be the one whose action
    /// this is.
    private func deliver(_ event: Event) {
        switch event {
        case .value(let input):
            guard let (downstream, _) = live() else { return }
            let demand = downstream.receive(input)
            guard demand != .none, let (_, upstream) = live() else { return }
            upstream.request(demand)
        case .completion(let completion):
            lock.lock()
            // `previous` keeps what the state held until the lock is released.
            let previous = state
            guard case .completing(let downstream, _) = previous else {
                lock.unlock()
                return
            }
            state = .terminated
            lock.unlock()
            downstream.receive(completion: completion)
        }
    }

    /// Downstream and the upstream subscription while values may still be delivered.
    /// Downstream and upstream while the stream is live. (An unlabelled pair: a labelled tuple's type
    /// metadata, made on the first delivery's thread, frees a buffer that the benchmark's malloc
    /// interposer cannot tell from its own, and crashes it on Swift 6.3.)
    private func live() -> (Downstream, any Subscription)? {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .subscribed(let downstream, let upstream), .completing(let downstream, let upstream):
            return (downstream, upstream)
        case .awaitingSubscription, .terminated, .abandoned: return nil
        }
    }

    // MARK: From downstream

    func request(_ demand: Subscribers.Demand) {
        if let (_, upstream) = live() { upstream.request(demand) }
    }

    func cancel() {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        switch previous {
        case .subscribed(_, let upstream):
            state = .terminated
            let dropped = hop.removeAll()
            lock.unlock()
            upstream.cancel()
            withExtendedLifetime(dropped) {}
        case .completing:
            // Upstream has finished: nothing to cancel, but nothing more goes downstream either.
            state = .terminated
            let dropped = hop.removeAll()
            lock.unlock()
            withExtendedLifetime((previous, dropped)) {}
        case .awaitingSubscription:
            state = .abandoned
            lock.unlock()
        case .terminated, .abandoned:
            lock.unlock()
        }
    }
}
