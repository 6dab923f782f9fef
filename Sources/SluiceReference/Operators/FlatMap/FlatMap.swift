// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify, and republishes the elements of all of them.
    ///
    /// Upstream is asked for `maxPublishers` elements, and for one more each time an inner
    /// publisher finishes. The stream finishes once upstream and every inner publisher have
    /// finished; any failure ends it at once.
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into a new publisher that cannot fail;
    /// the inner publishers are given this publisher's failure type.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            Publishers.SetFailureType(upstream: transform($0))
        }
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into new publishers
    /// that can; upstream is given the inner publishers' failure type.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into new publishers, none of which can fail.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// Downstream receives the subscription before upstream is subscribed. Each inner publisher
    /// is asked for one value at a time (or for `.unlimited` once downstream's demand is
    /// unlimited); a value that arrives while downstream has no demand waits in a buffer, and
    /// the inner publisher is asked for the next one when it is delivered. Values are delivered
    /// one at a time, whichever thread sends them.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// A closure that takes an element as a parameter and returns a publisher that produces elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new publisher.
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream, NewPublisher, S>(
                maxPublishers: maxPublishers, transform: transform, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

/// The subscriber one inner publisher talks to, tagged with the inner publisher's number.
private struct FlatMapInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    Introspected
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    typealias Input = NewPublisher.Output
    typealias Failure = NewPublisher.Failure

    let parent: FlatMapSubscription<Upstream, NewPublisher, Downstream>
    let index: Int
    let combineIdentifier = CombineIdentifier()

    var description: String { "FlatMap" }

    /// As Combine's: the identifier of the subscription (the outer subscriber) it belongs to.
    var customMirror: Mirror { Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))]) }

    func receive(subscription: any Subscription) { parent.receiveInner(subscription: subscription, from: index) }

    func receive(_ input: Input) -> Subscribers.Demand { parent.receiveInner(input, from: index) }

    func receive(completion: Subscribers.Completion<Failure>) {
        parent.receiveInner(completion: completion, from: index)
    }
}

/// Merges the inner publishers. One lock over the fields below, never held while calling out.
///
/// Deliveries are serial: the one thread that sets `delivering` calls downstream; a value that
/// arrives meanwhile (from another thread, or re-entrantly) is appended to `buffer` and
/// delivered by that thread, as is a failure (`pendingCompletion`). The buffer also holds values
/// that arrived while downstream had no demand.
///
/// Lifetimes: downstream and `transform` are in `live` until the stream ends. Whoever delivers the
/// completion, or cancels, takes them out under the lock (`endLive()`) and drops them after it;
/// a failure that waits for the delivering thread leaves them to that thread. The inner and
/// upstream subscriptions are taken out and cancelled (or dropped) at the end as well.
private final class FlatMapSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscription, Subscriber, Introspected
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum Outer {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream finished; the stream finishes when the inner publishers have.
        case finished
        /// Completed or cancelled: nothing more happens.
        case terminated
    }

    private enum Inner {
        case awaitingSubscription
        case subscribed(any Subscription)
    }

    private let lock = Lock()
    private var outer = Outer.awaitingSubscription
    /// The inner publishers that have not completed, by number.
    private var inners: [Int: Inner] = [:]
    private var nextIndex = 0
    /// Requested by downstream and not yet delivered.
    private var demand = Subscribers.Demand.none
    /// Values waiting for demand or for the delivering thread, with the number of their inner publisher.
    private var buffer: [(index: Int, value: Downstream.Input)] = []
    private var delivering = false
    /// A failure that arrived while another thread was delivering; that thread passes it on.
    private var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let transform: (Upstream.Output) -> NewPublisher
    }

    /// `nil` once the stream has ended (or its failure is being delivered).
    private var live: Live?
    private let maxPublishers: Subscribers.Demand

    init(
        maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher,
        downstream: Downstream
    ) {
        self.maxPublishers = maxPublishers
        live = Live(downstream: downstream, transform: transform)
    }

    var description: String { "FlatMap" }

    private var isTerminated: Bool {
        if case .terminated = outer { true } else { false }
    }

    /// Whether the stream is over once nothing waits: upstream and every inner publisher finished.
    private var isExhausted: Bool {
        if case .finished = outer { inners.isEmpty && buffer.isEmpty } else { false }
    }

    /// The inner subscriptions that have arrived, in the order the inner publishers were made.
    private var innerSubscriptions: [any Subscription] {
        inners.sorted { $0.key < $1.key }.compactMap { entry in
            if case .subscribed(let subscription) = entry.value { subscription } else { nil }
        }
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
        // Combine asks for `.none` here; a request for nothing is an API violation in Sluice.
        if maxPublishers != .none { subscription.request(maxPublishers) }
    }

    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = outer, let transform = live?.transform else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let publisher = transform(input)
        lock.lock()
        // A cancel from inside `transform` wins: nothing is subscribed.
        guard case .subscribed = outer else {
            lock.unlock()
            return .none
        }
        let index = nextIndex
        nextIndex += 1
        inners[index] = .awaitingSubscription
        lock.unlock()
        // flatMaps nested in flatMaps subscribe one inside the other: past the limit, later.
        Trampoline.run { publisher.subscribe(FlatMapInner(parent: self, index: index)) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
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
            finishIfExhausted()
        case .failure(let error):
            fail(error)
        }
    }

    // MARK: Inner publishers

    func receiveInner(subscription: any Subscription, from index: Int) {
        lock.lock()
        guard !isTerminated, case .awaitingSubscription? = inners[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        inners[index] = .subscribed(subscription)
        let ask: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(ask)
    }

    func receiveInner(_ input: Downstream.Input, from index: Int) -> Subscribers.Demand {
        lock.lock()
        guard !isTerminated, case .subscribed? = inners[index] else {
            lock.unlock()
            return .none
        }
        guard !delivering, demand > 0, let downstream = live?.downstream else {
            // Its inner publisher is asked for the next value when this one is delivered.
            buffer.append((index, input))
            lock.unlock()
            return .none
        }
        delivering = true
        let isUnlimited = demand == .unlimited
        demand -= 1
        lock.unlock()
        // flatMaps nested in flatMaps deliver one inside the other: past the limit, this caller
        // keeps the delivering turn and delivers later, then asks the inner publisher for more.
        let trampoline = Trampoline.current
        guard trampoline.enter() else {
            trampoline.defer { [self] in
                lock.lock()
                // Cancelled meanwhile: nothing more is delivered (`drain` gives up the turn).
                guard let downstream = live?.downstream else {
                    _ = drain(askingInners: false)
                    return
                }
                lock.unlock()
                let more = downstream.receive(input)
                lock.lock()
                demand += more
                guard drain(askingInners: false), !isUnlimited else { return }
                let inner = lock.withLock { () -> (any Subscription)? in
                    if case .subscribed(let subscription)? = inners[index] { subscription } else { nil }
                }
                inner?.request(.max(1))
            }
            return .none
        }
        let more = downstream.receive(input)
        trampoline.leave()
        lock.lock()
        demand += more
        let isLive = drain(askingInners: false)
        // With unlimited demand the inner publisher already has all it will ever need.
        return isLive && !isUnlimited ? .max(1) : .none
    }

    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, from index: Int) {
        lock.lock()
        guard !isTerminated, inners.removeValue(forKey: index) != nil else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            var upstream: (any Subscription)?
            if maxPublishers != .unlimited, case .subscribed(let subscription) = outer { upstream = subscription }
            if isExhausted && !delivering {
                let ended = endLive()
                lock.unlock()
                finish(ended?.downstream, with: .finished)
                return
            }
            lock.unlock()
            // A slot is free: upstream may send one more element.
            upstream?.request(.max(1))
        case .failure(let error):
            // As in Combine, an inner failure cancels the other inner publishers but not upstream.
            fail(error)
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
        let becomesUnlimited = demand == .unlimited && self.demand != .unlimited
        self.demand += demand
        let toUnlimit = becomesUnlimited ? innerSubscriptions : []
        guard !delivering, !buffer.isEmpty else {
            lock.unlock()
            for inner in toUnlimit { inner.request(.unlimited) }
            return
        }
        delivering = true
        lock.unlock()
        for inner in toUnlimit { inner.request(.unlimited) }
        lock.lock()
        _ = drain(askingInners: demand != .unlimited)
    }

    func cancel() {
        lock.lock()
        var upstream: (any Subscription)?
        if case .subscribed(let subscription) = outer { upstream = subscription }
        let toCancel = innerSubscriptions
        let ended = endLive()
        let dropped = buffer
        inners = [:]
        buffer = []
        pendingCompletion = nil
        lock.unlock()
        // Combine cancels the inner publishers first, then upstream.
        for inner in toCancel { inner.cancel() }
        upstream?.cancel()
        withExtendedLifetime((ended, dropped)) {}
    }

    // MARK: Endings and delivery (each is entered with the lock held and releases it)

    /// Delivers the stream's completion to the downstream it ended with. (flatMaps nested in
    /// flatMaps complete one inside the other: past the limit, downstream hears it later.)
    private func finish(_ downstream: Downstream?, with completion: Subscribers.Completion<Downstream.Failure>) {
        guard let downstream else { return }
        Trampoline.run { downstream.receive(completion: completion) }
    }

    /// Moves to `.terminated` and hands over downstream and `transform`, for the caller to use and
    /// drop after it releases the lock. Called with the lock held.
    private func endLive() -> Live? {
        outer = .terminated
        return live.take()
    }

    /// Finishes downstream if upstream and every inner publisher are done and nothing is being delivered.
    private func finishIfExhausted() {
        guard isExhausted, !delivering else {
            lock.unlock()
            return
        }
        let ended = endLive()
        lock.unlock()
        finish(ended?.downstream, with: .finished)
    }

    /// Ends the stream with a failure: the inner publishers still running are cancelled first.
    /// If another thread is delivering, it delivers the failure (and lets go of downstream).
    private func fail(_ error: Downstream.Failure) {
        let toCancel = innerSubscriptions
        // Kept until the lock is released: the upstream subscription and the waiting values.
        let dropped = (outer, buffer)
        outer = .terminated
        inners = [:]
        buffer = []
        let deliverNow = !delivering
        let ended = deliverNow ? live.take() : nil
        if !deliverNow { pendingCompletion = .failure(error) }
        lock.unlock()
        for inner in toCancel { inner.cancel() }
        finish(ended?.downstream, with: .failure(error))
        withExtendedLifetime(dropped) {}
    }

    /// Delivers buffered values while downstream has demand, then a pending completion, or the
    /// final `.finished`. Only the thread that set `delivering` calls it. With `askingInners`
    /// (downstream's request for a number of values), each inner publisher whose value is
    /// delivered is asked for one more, as in Combine. Returns whether the stream is still live.
    private func drain(askingInners: Bool) -> Bool {
        while true {
            if let completion = pendingCompletion {
                pendingCompletion = nil
                delivering = false
                let ended = live.take()
                lock.unlock()
                finish(ended?.downstream, with: completion)
                return false
            }
            if isTerminated {
                delivering = false
                lock.unlock()
                return false
            }
            if !buffer.isEmpty, demand > 0, let downstream = live?.downstream {
                let (index, value) = buffer.removeFirst()
                demand -= 1
                var inner: (any Subscription)?
                if askingInners, case .subscribed(let subscription)? = inners[index] { inner = subscription }
                lock.unlock()
                let more = downstream.receive(value)
                // As in Combine, the demand the value returned counts before its inner publisher
                // is asked for the next one, which may come (or make the next inner come) at once.
                lock.lock()
                demand += more
                lock.unlock()
                inner?.request(.max(1))
                lock.lock()
                continue
            }
            if isExhausted {
                let ended = endLive()
                delivering = false
                lock.unlock()
                finish(ended?.downstream, with: .finished)
                return false
            }
            delivering = false
            lock.unlock()
            return true
        }
    }
}
