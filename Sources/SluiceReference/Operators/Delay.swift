// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on a
    /// particular scheduler.
    ///
    /// Each value and the completion (a failure too) is delivered on `scheduler`, `interval` after it
    /// arrived. Demand passes straight through: downstream's requests go upstream as they are, and so
    /// does the demand downstream returns for each delayed value. Nothing is delivered after a cancel.
    /// On a concurrent scheduler too, values arrive one at a time, in the order they were sent, and
    /// all before the completion.
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

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DelaySubscription(
                    downstream: subscriber, interval: interval, tolerance: tolerance, scheduler: scheduler,
                    options: options))
        }
    }
}

/// The subscriber to upstream and the subscription downstream of `delay`.
///
/// Upstream's events wait in a `Hop`, and each is scheduled `interval` after it came, one action
/// each; an action delivers the oldest event waiting, so they reach downstream one at a time and in
/// order even on a concurrent scheduler. A cancel empties the hop.
///
/// Lifetimes: downstream lives in the state. A scheduled delivery holds this subscription until
/// it runs, but not downstream: a cancel lets go of downstream and of the values waiting at once,
/// and the completion's delivery takes downstream out.
///
/// It does not introspect: Combine's delay subscription does not (DelayTests).
private final class DelaySubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        /// Upstream completed; its completion is scheduled. The subscription is kept because the
        /// demand returned for values still on their way goes upstream, as in Combine.
        case completing(Downstream, upstream: any Subscription)
        /// Completed or cancelled.
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

    private let interval: Context.SchedulerTimeType.Stride
    private let tolerance: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(
        downstream: Downstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
        scheduler: Context, options: Context.SchedulerOptions?
    ) {
        state = .awaitingSubscription(downstream)
        hop = Hop(lock: lock)
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
    }

    // MARK: Upstream

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
        // Only the events are delayed, not the subscription.
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
        scheduleAfterInterval()
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
        scheduleAfterInterval()
    }

    // MARK: Scheduler

    /// Schedules the action of the event just enqueued.
    private func scheduleAfterInterval() {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options) {
            self.hop.run(self.deliver)
        }
    }

    /// Delivers the oldest event waiting (the hop's turn), which may not be the one whose action
    /// this is.
    private func deliver(_ event: Event) {
        switch event {
        case .value(let input):
            lock.lock()
            let downstream: Downstream
            switch state {
            case .subscribed(let live, _), .completing(let live, _):
                downstream = live
            case .awaitingSubscription, .terminated, .abandoned:
                lock.unlock()
                return
            }
            lock.unlock()
            let more = downstream.receive(input)
            guard more > 0 else { return }
            lock.lock()
            switch state {
            case .subscribed(_, let upstream), .completing(_, let upstream):
                lock.unlock()
                upstream.request(more)
            case .awaitingSubscription, .terminated, .abandoned:
                lock.unlock()
            }
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

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        switch state {
        case .subscribed(_, let upstream), .completing(_, let upstream):
            lock.unlock()
            upstream.request(demand)
        case .awaitingSubscription, .terminated, .abandoned:
            lock.unlock()
        }
    }

    func cancel() {
        let (previous, dropped) = lock.withLock {
            let previous =
                if case .awaitingSubscription = state {
                    exchange(&state, with: .abandoned)
                } else {
                    exchange(&state, with: .terminated)
                }
            return (previous, hop.removeAll())
        }
        // A completed upstream has nothing to cancel.
        if case .subscribed(_, let upstream) = previous { upstream.cancel() }
        withExtendedLifetime(dropped) {}
    }
}
