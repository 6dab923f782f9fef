// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// Each new publisher from upstream cancels the previous one and is asked for the demand
    /// downstream has outstanding. The stream finishes when upstream and the latest publisher
    /// have finished; a failure from either ends it.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher; upstream, which cannot
    /// fail, is given the inner publishers' failure type.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when neither upstream
    /// nor the inner publishers can fail.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher; the inner publishers,
    /// which cannot fail, are given upstream's failure type.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers, republishing only the elements of the most
    /// recent one.
    ///
    /// Downstream receives the subscription before upstream is subscribed; upstream is asked for
    /// `.unlimited`. When a new publisher arrives, the previous one is cancelled and the new one,
    /// once subscribed, is asked for everything downstream requested and has not received;
    /// later requests pass straight to it.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that “flattens” nested publishers.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

/// The subscriber one inner publisher talks to, tagged with its generation: a signal from a
/// publisher that is no longer the latest is recognised and ignored.
private struct SwitchToLatestInner<P: Publisher, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    typealias Input = P.Output
    typealias Failure = P.Failure

    let parent: SwitchToLatestSubscription<P, Downstream>
    let generation: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        parent.receiveInner(subscription: subscription, generation: generation)
    }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receiveInner(input, generation: generation) }

    func receive(completion: Subscribers.Completion<Failure>) {
        parent.receiveInner(completion: completion, generation: generation)
    }

    var description: String { "SwitchToLatest" }

    var customMirror: Mirror { Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))]) }
}

/// Follows the latest inner publisher. One lock over the fields below, never held while calling out.
///
/// Deliveries are serial: the thread that sets `delivering` calls downstream; a value accepted
/// meanwhile (from an old inner publisher on another thread, or a new one re-entrantly) waits
/// in `buffer` and is delivered by that thread, as is a completion (`pendingCompletion`).
///
/// Lifetimes: `downstream` is `nil` once the stream has ended. Whoever delivers the completion, or
/// cancels, takes it out under the lock (`endDownstream()`) and drops it after; a completion that
/// waits for the delivering thread leaves it to that thread.
private final class SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, Subscriber,
    Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    typealias Input = P
    typealias Failure = P.Failure

    private enum Outer {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream finished; the stream finishes when the latest inner publisher has.
        case finished
        /// Completed or cancelled: nothing more happens.
        case terminated
    }

    private enum Inner {
        case none
        /// Also after upstream failed: Combine still asks the late subscription for the demand.
        case awaitingSubscription
        case subscribed(any Subscription)

        /// Subscribed to and not completed.
        var isLive: Bool {
            if case .none = self { false } else { true }
        }
    }

    private let lock = Lock()
    private var outer = Outer.awaitingSubscription
    private var inner = Inner.none
    /// The generation of the latest inner publisher.
    private var generation = 0
    /// Requested by downstream and not yet delivered (values in `buffer` are already counted).
    private var demand = Subscribers.Demand.none
    private var buffer: [Downstream.Input] = []
    private var delivering = false
    private var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
    private var downstream: Downstream?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "SwitchToLatest" }

    private var isTerminated: Bool {
        if case .terminated = outer { true } else { false }
    }

    private var innerSubscription: (any Subscription)? {
        if case .subscribed(let subscription) = inner { subscription } else { nil }
    }

    /// Upstream finished and no inner publisher runs.
    private var isExhausted: Bool {
        guard case .finished = outer, case .none = inner else { return false }
        return buffer.isEmpty
    }

    // MARK: Upstream (in Combine, the subscription is upstream's subscriber)

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = outer else {
            lock.unlock()
            subscription.cancel()
            return
        }
        outer = .subscribed(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    func receive(_ input: P) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = outer else {
            lock.unlock()
            return .none
        }
        let previous = innerSubscription
        generation += 1
        let current = generation
        inner = .awaitingSubscription
        lock.unlock()
        previous?.cancel()
        input.subscribe(SwitchToLatestInner(parent: self, generation: current))
        return .none
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        // `previous` keeps the upstream subscription until the lock is released.
        let previous = outer
        switch previous {
        case .awaitingSubscription, .subscribed: break
        case .finished, .terminated:
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            outer = .finished
            guard isExhausted, !delivering else {
                lock.unlock()
                return
            }
            let ended = endDownstream()
            lock.unlock()
            ended?.receive(completion: .finished)
        case .failure(let error):
            let toCancel = innerSubscription
            if toCancel != nil { inner = .none }
            end(with: .failure(error), cancelling: toCancel)
        }
    }

    // MARK: The inner publishers

    func receiveInner(subscription: any Subscription, generation: Int) {
        lock.lock()
        // A replaced publisher's subscription, or a second one, is cancelled.
        guard generation == self.generation else {
            lock.unlock()
            subscription.cancel()
            return
        }
        switch inner {
        case .none:
            // The latest publisher completed: while the stream runs, Combine leaves a
            // subscription it sends after alone.
            let ended = isTerminated
            lock.unlock()
            if ended { subscription.cancel() }
        case .subscribed:
            lock.unlock()
            subscription.cancel()
        case .awaitingSubscription:
            let ask = demand
            if isTerminated {
                // Upstream failed meanwhile: Combine asks for the demand and keeps nothing.
                inner = .none
            } else {
                inner = .subscribed(subscription)
            }
            lock.unlock()
            if ask > 0 { subscription.request(ask) }
        }
    }

    func receiveInner(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        // A replaced or completed publisher's value is ignored. The latest may send before its
        // subscription arrives, but never beyond the demand it was given: Combine traps.
        guard !isTerminated, generation == self.generation, inner.isLive else {
            lock.unlock()
            return .none
        }
        guard demand > 0 else {
            lock.unlock()
            trap(
                "API violation: SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand"
            )
        }
        demand -= 1
        guard !delivering, let downstream else {
            buffer.append(input)
            lock.unlock()
            return .none
        }
        delivering = true
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        // The answer goes to the latest inner publisher, which may no longer be this one.
        let returned = settle(more, from: generation)
        drain()
        return returned
    }

    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        lock.lock()
        guard !isTerminated, generation == self.generation else {
            lock.unlock()
            return
        }
        // `previous` keeps the inner subscription until the lock is released.
        let previous = inner
        switch previous {
        case .none:
            lock.unlock()
            return
        case .awaitingSubscription:
            lock.unlock()
            trap(
                "API violation: SwitchToLatest's inner publisher completed before sending its subscription")
        case .subscribed:
            inner = .none
        }
        switch completion {
        case .finished:
            guard isExhausted, !delivering else {
                lock.unlock()
                return
            }
            let ended = endDownstream()
            lock.unlock()
            ended?.receive(completion: .finished)
        case .failure(let error):
            var upstream: (any Subscription)?
            if case .subscribed(let subscription) = outer { upstream = subscription }
            end(with: .failure(error), cancelling: upstream)
        }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        let current = innerSubscription
        lock.unlock()
        current?.request(demand)
    }

    func cancel() {
        lock.lock()
        var upstream: (any Subscription)?
        if case .subscribed(let subscription) = outer { upstream = subscription }
        let current = innerSubscription
        let ended = endDownstream()
        let dropped = buffer
        inner = .none
        buffer = []
        pendingCompletion = nil
        lock.unlock()
        // Combine cancels the inner publisher first, then upstream.
        current?.cancel()
        upstream?.cancel()
        withExtendedLifetime((ended, dropped)) {}
    }

    // MARK: Endings and delivery (each is entered with the lock held and releases it)

    /// Moves to `.terminated` and hands over downstream, for the caller to use and drop after it
    /// releases the lock. Called with the lock held.
    private func endDownstream() -> Downstream? {
        outer = .terminated
        return downstream.take()
    }

    /// Ends the stream with `completion` after cancelling `other` (the side that did not fail).
    /// If another thread is delivering, it delivers the completion (and lets go of downstream).
    private func end(with completion: Subscribers.Completion<Downstream.Failure>, cancelling other: (any Subscription)?)
    {
        // Kept until the lock is released: the upstream subscription and the waiting values.
        let dropped = (outer, buffer)
        outer = .terminated
        buffer = []
        let deliverNow = !delivering
        let ended = deliverNow ? downstream.take() : nil
        if !deliverNow { pendingCompletion = completion }
        lock.unlock()
        other?.cancel()
        ended?.receive(completion: completion)
        withExtendedLifetime(dropped) {}
    }

    /// Adds what downstream returned for a value of inner publisher `generation`. Returns the
    /// demand to answer that publisher with; if a newer one runs, it is asked instead, by
    /// `drain`. Called and returns with the lock held.
    private func settle(_ more: Subscribers.Demand, from generation: Int) -> Subscribers.Demand {
        guard more > 0, !isTerminated else { return .none }
        demand += more
        if generation == self.generation, inner.isLive { return more }
        owedToLatest += more
        return .none
    }

    /// Demand downstream returned for values of an inner publisher that was replaced while they
    /// were delivered: the latest inner publisher is asked for it.
    private var owedToLatest = Subscribers.Demand.none

    /// Delivers accepted values in order, passes demand downstream returned on to the latest
    /// inner publisher, and delivers a pending or final completion. Only the thread that set
    /// `delivering` calls it.
    private func drain() {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                delivering = false
                let ended = downstream.take()
                lock.unlock()
                ended?.receive(completion: completion)
                return
            }
            if isTerminated {
                delivering = false
                lock.unlock()
                return
            }
            if owedToLatest > 0 {
                let owed = owedToLatest
                owedToLatest = .none
                // Without a subscribed inner publisher, the next one is asked for all of
                // `demand` when it is subscribed, this included.
                if let current = innerSubscription {
                    lock.unlock()
                    current.request(owed)
                    lock.lock()
                    continue
                }
            }
            if !buffer.isEmpty, let downstream {
                let value = buffer.removeFirst()
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                // Buffered values answered their publisher with `.none`: what downstream returns
                // now goes to the latest inner publisher.
                _ = settle(more, from: -1)
                continue
            }
            if isExhausted {
                let ended = endDownstream()
                delivering = false
                lock.unlock()
                ended?.receive(completion: .finished)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }
}
