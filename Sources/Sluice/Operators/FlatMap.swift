import Synchronization

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify, and republishes the elements of all of them.
    ///
    /// Upstream is asked for `maxPublishers` elements, and for one more each time an inner
    /// publisher finishes. The stream finishes once upstream and every inner publisher have
    /// finished; any failure ends it at once.
    @inlinable
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into a new publisher that cannot fail;
    /// the inner publishers are given this publisher's failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) { Publishers.SetFailureType(upstream: transform($0)) }
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into new publishers
    /// that can; upstream is given the inner publishers' failure type.
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into new publishers, none of which can fail.
    @inlinable
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
    /// is asked for one value at a time (for `.unlimited` once downstream's demand is); a value
    /// that arrives while downstream has no demand waits, and its publisher is asked for the next
    /// one when it is delivered. Values are delivered one at a time, whichever thread sends them.
    ///
    /// An inner publisher that hands over at most one value synchronously (`Just`, `Optional`,
    /// `Result`, `Fail`, stages over them) or an `Empty` is not subscribed to: its value and
    /// completion are taken at once, which is what subscribing to it would produce.
    @frozen
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        public typealias Output = NewPublisher.Output
        public typealias Failure = Upstream.Failure
        public typealias _Cursor = _FlattenCursor<Upstream._Cursor, NewPublisher>

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand
        /// A closure that takes an element as a parameter and returns a publisher that produces elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new publisher.
        @inlinable
        public init(upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = _FlatMapSubscription<Upstream, NewPublisher, S>(
                maxPublishers: maxPublishers, transform: transform, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(_FlatMapOuter(parent: subscription))
        }

        /// Fused for the consumers that ask for `.unlimited` at once (see `_FlattenCursor`).
        @inlinable public static var _isFusable: Bool { Upstream._fusesUnderAnyDemand && NewPublisher._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor {
            _FlattenCursor(
                upstream: upstream._makeCursor(), cancelsUpstreamOnFailure: false, isStarved: maxPublishers == .none,
                transform: transform)
        }
    }
}

/// A first-in first-out queue that keeps its storage: appending costs no allocation once it has
/// grown to the largest backlog seen.
@frozen @usableFromInline
struct _FlatMapQueue<Element> {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == storage.count }

    @inlinable mutating func append(_ element: Element) { storage.append(element) }

    @inlinable
    mutating func removeFirst() -> Element {
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    @inlinable
    mutating func removeAll() {
        storage = []
        head = 0
    }
}

/// The subscriber upstream talks to; it carries the subscription's identifier.
@frozen @usableFromInline
struct _FlatMapOuter<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber, SideSubscriber
where NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let parent: _FlatMapSubscription<Upstream, NewPublisher, Downstream>

    @inlinable init(parent: _FlatMapSubscription<Upstream, NewPublisher, Downstream>) { self.parent = parent }

    @inlinable var owner: _FlatMapSubscription<Upstream, NewPublisher, Downstream> { parent }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

    @inlinable func receive(subscription: any Subscription) { parent.upstreamSubscribed(subscription) }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.upstreamSent(input) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.upstreamCompleted(completion) }
    }
}

/// The subscriber of one inner publisher, by its number.
@frozen @usableFromInline
struct _FlatMapInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber, Introspected
where NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Input = NewPublisher.Output
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let parent: _FlatMapSubscription<Upstream, NewPublisher, Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(parent: _FlatMapSubscription<Upstream, NewPublisher, Downstream>, index: Int) {
        self.parent = parent
        self.index = index
        combineIdentifier = CombineIdentifier()
    }

    @usableFromInline var description: String { "FlatMap" }

    /// As Combine's: the identifier of the subscription (the outer subscriber) it belongs to.
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))]) }

    @inlinable func receive(subscription: any Subscription) { parent.innerSubscribed(subscription, index: index) }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.innerSent(input, index: index) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.innerCompleted(completion, index: index) }
    }
}

/// The fan-in of `flatMap`: one `Lock` over the fields below, never held while calling out.
///
/// Whoever sets `delivering` is the only caller of downstream until it clears it; values that
/// arrive meanwhile, or while downstream has no demand, wait in `queue` and that caller delivers
/// them (the drain), as well as a failure that arrived meanwhile. `isDone` lets an upstream value
/// be dropped after the end without taking the lock.
@usableFromInline
final class _FlatMapSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscription, Introspected
where NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline typealias Value = NewPublisher.Output
    /// The number a value carries when it came from an inner publisher that was never subscribed to.
    @usableFromInline static var unsubscribed: Int { -1 }

    @usableFromInline static var awaitingUpstream: UInt8 { 0 }
    @usableFromInline static var running: UInt8 { 1 }
    @usableFromInline static var upstreamFinished: UInt8 { 2 }
    @usableFromInline static var terminated: UInt8 { 3 }

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @exclusivity(unchecked)
    @usableFromInline var transform: Releasable<(Upstream.Output) -> NewPublisher>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline let lock = Lock()
    @usableFromInline let isDone = Atomic<Bool>(false)

    @exclusivity(unchecked) @usableFromInline var phase: UInt8 = 0
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    /// The inner publishers that have not completed: their subscription, or nil until it arrives.
    @exclusivity(unchecked) @usableFromInline var inners: [Int: (any Subscription)?] = [:]
    /// Inner `Empty` publishers that never complete: the stream cannot finish.
    @exclusivity(unchecked) @usableFromInline var unending = 0
    @exclusivity(unchecked) @usableFromInline var nextIndex = 0
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var queue = _FlatMapQueue<(index: Int, value: Value)>()
    @exclusivity(unchecked) @usableFromInline var delivering = false
    @exclusivity(unchecked) @usableFromInline var pendingFailure: Downstream.Failure?

    @inlinable
    init(maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher, downstream: Downstream) {
        self.maxPublishers = maxPublishers
        self.transform = Releasable(transform)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: _FlatMapSubscription.self).release() }
    }

    /// Lets go of downstream and the closure: called once, when `lifetime` says so.
    @inlinable
    func release() {
        downstream.release()
        transform.release()
    }

    /// Inside a `lifetime` call: the stream's completion, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @usableFromInline var description: String { "FlatMap" }

    @inlinable var isExhausted: Bool {
        phase == Self.upstreamFinished && inners.isEmpty && unending == 0 && queue.isEmpty
    }

    @inlinable
    func terminate() {
        phase = Self.terminated
        isDone.store(true, ordering: .relaxed)
    }

    // MARK: Upstream

    @inlinable
    func upstreamSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard phase == Self.awaitingUpstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = Self.running
        upstream = subscription
        lock.unlock()
        // Combine asks for `.none` here; a request for nothing is an API violation in Sluice.
        if maxPublishers != .none { subscription.request(maxPublishers) }
    }

    @inlinable
    func upstreamSent(_ input: Upstream.Output) -> Subscribers.Demand {
        guard !isDone.load(ordering: .relaxed) else { return .none }
        let publisher = transform.with { $0(input) }
        if NewPublisher._isFusable && NewPublisher._Cursor._yieldsAtMostOneValue {
            var cursor = publisher._makeCursor()
            let (value, completion) = cursor._takeAtMostOne()
            takeImmediate(value, completion)
        } else if NewPublisher.self == Empty<Value, Downstream.Failure>.self {
            let completesAtOnce = unsafeBitCast(publisher, to: Empty<Value, Downstream.Failure>.self).completeImmediately
            lock.lock()
            if phase != Self.running {
                lock.unlock()
            } else if completesAtOnce {
                innerFinished(index: Self.unsubscribed)
            } else {
                unending += 1
                lock.unlock()
            }
        } else {
            lock.lock()
            guard phase == Self.running else {
                lock.unlock()
                return .none
            }
            let index = nextIndex
            nextIndex += 1
            inners[index] = .some(nil)
            lock.unlock()
            publisher.subscribe(_FlatMapInner(parent: self, index: index))
        }
        return .none
    }

    /// What a subscription to a synchronous one-shot inner publisher would produce, without one:
    /// its value (delivered now or queued, as its request for one value would), then its completion.
    @inlinable
    func takeImmediate(_ value: Value?, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard phase == Self.running else { return lock.unlock() }
        if let value {
            guard !delivering, demand != .none else {
                queue.append((Self.unsubscribed, value))
                return end(completion, index: Self.unsubscribed)
            }
            delivering = true
            if demand != .unlimited { demand -= 1 }
            lock.unlock()
            let more = downstream.with { $0.receive(value) }
            lock.lock()
            if more != .none { demand += more }
            guard case .finished = completion else {
                // Not from `Just` & co., but a stage may end the chain with a failure after a value.
                _ = drain(askingInners: false)
                lock.lock()
                guard phase == Self.running else { return lock.unlock() }
                return end(completion, index: Self.unsubscribed)
            }
            // The inner publisher is done before the drain, so that the drain may finish the stream.
            // With unlimited `maxPublishers` upstream is never asked again: the common case touches
            // no `(any Subscription)?` (copying even a nil one costs value-witness calls).
            if maxPublishers == .unlimited {
                _ = drain(askingInners: false)
                return
            }
            let upstreamToAsk = phase == Self.running ? upstream : nil
            if drain(askingInners: false) { upstreamToAsk?.request(.max(1)) }
            return
        }
        end(completion, index: Self.unsubscribed)
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard phase <= Self.running else { return lock.unlock() }
        switch completion {
        case .finished:
            phase = Self.upstreamFinished
            upstream = nil
            guard !delivering, isExhausted else { return lock.unlock() }
            terminate()
            lock.unlock()
            complete(.finished)
        case .failure(let error):
            fail(error)
        }
    }

    // MARK: Inner publishers

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, index: Int) {
        lock.lock()
        guard phase != Self.terminated, let slot = inners[index], slot == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        inners[index] = subscription
        let ask: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(ask)
    }

    @inlinable
    func innerSent(_ input: Value, index: Int) -> Subscribers.Demand {
        lock.lock()
        guard phase != Self.terminated, let slot = inners[index], slot != nil else {
            lock.unlock()
            return .none
        }
        guard !delivering, demand != .none else {
            // Its publisher is asked for the next value when this one is delivered.
            queue.append((index, input))
            lock.unlock()
            return .none
        }
        delivering = true
        let isUnlimited = demand == .unlimited
        if !isUnlimited { demand -= 1 }
        lock.unlock()
        let more = downstream.with { $0.receive(input) }
        lock.lock()
        if more != .none { demand += more }
        let isLive = drain(askingInners: false)
        return isLive && !isUnlimited ? .max(1) : .none
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        lock.lock()
        guard phase != Self.terminated, inners[index] != nil else { return lock.unlock() }
        end(completion, index: index)
    }

    /// An inner publisher completed (entered with the lock held; releases it).
    @inlinable
    func end(_ completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        switch completion {
        case .finished:
            innerFinished(index: index)
        case .failure(let error):
            inners[index] = nil
            // As in Combine, the other inner publishers are cancelled, upstream is not.
            fail(error)
        }
    }

    /// Frees the inner publisher's slot: upstream may send one more element (entered with the
    /// lock held; releases it).
    @inlinable
    func innerFinished(index: Int) {
        if index != Self.unsubscribed { inners[index] = nil }
        if !delivering && isExhausted {
            terminate()
            lock.unlock()
            complete(.finished)
            return
        }
        if maxPublishers == .unlimited { return lock.unlock() }
        let upstreamToAsk = phase == Self.running ? upstream : nil
        lock.unlock()
        upstreamToAsk?.request(.max(1))
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        lock.lock()
        guard phase != Self.terminated else { return lock.unlock() }
        let becomesUnlimited = demand == .unlimited && self.demand != .unlimited
        self.demand += demand
        let toUnlimit = becomesUnlimited ? subscribedInners() : []
        guard !delivering, !queue.isEmpty else {
            lock.unlock()
            for inner in toUnlimit { inner.request(.unlimited) }
            return
        }
        delivering = true
        lock.unlock()
        for inner in toUnlimit { inner.request(.unlimited) }
        lock.lock()
        if lifetime.call(self, { drain(askingInners: true) }) == nil {
            delivering = false
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase != Self.terminated else { return lock.unlock() }
        let upstream = self.upstream
        let toCancel = subscribedInners()
        terminate()
        self.upstream = nil
        inners = [:]
        queue.removeAll()
        pendingFailure = nil
        lock.unlock()
        // Combine cancels the inner publishers first, then upstream.
        for inner in toCancel { inner.cancel() }
        upstream?.cancel()
        lifetime.end(self)
    }

    // MARK: Endings and delivery

    /// The inner subscriptions that have arrived, oldest first (called with the lock held).
    @inlinable
    func subscribedInners() -> [any Subscription] {
        inners.sorted { $0.key < $1.key }.compactMap { $0.value }
    }

    /// Ends the stream with a failure after cancelling the inner publishers still running
    /// (entered with the lock held; releases it).
    @inlinable
    func fail(_ error: Downstream.Failure) {
        let toCancel = subscribedInners()
        terminate()
        upstream = nil
        inners = [:]
        queue.removeAll()
        let deliverNow = !delivering
        if !deliverNow { pendingFailure = error }
        lock.unlock()
        for inner in toCancel { inner.cancel() }
        if deliverNow { complete(.failure(error)) }
    }

    /// Delivers queued values while downstream has demand, then a failure that arrived
    /// meanwhile, or the final `.finished`; clears `delivering`. Entered with the lock held by
    /// the one caller that set `delivering`; releases it. With `askingInners` (downstream's
    /// request), each inner publisher whose value is delivered is asked for one more. Returns
    /// whether the stream is still live.
    @inlinable
    func drain(askingInners: Bool) -> Bool {
        while true {
            if let failure = pendingFailure {
                pendingFailure = nil
                delivering = false
                lock.unlock()
                complete(.failure(failure))
                return false
            }
            if phase == Self.terminated {
                delivering = false
                lock.unlock()
                return false
            }
            if !queue.isEmpty && demand != .none {
                let (index, value) = queue.removeFirst()
                var inner: (any Subscription)?
                if demand != .unlimited {
                    demand -= 1
                    if askingInners, let slot = inners[index] { inner = slot }
                }
                lock.unlock()
                let more = downstream.with { $0.receive(value) }
                inner?.request(.max(1))
                lock.lock()
                if more != .none { demand += more }
                continue
            }
            if isExhausted {
                terminate()
                delivering = false
                lock.unlock()
                complete(.finished)
                return false
            }
            delivering = false
            lock.unlock()
            return true
        }
    }
}
