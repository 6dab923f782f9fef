import Synchronization

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// Each new publisher from upstream cancels the previous one and is asked for the demand
    /// downstream has outstanding. The stream finishes when upstream and the latest publisher
    /// have finished; a failure from either ends it.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher; upstream, which cannot
    /// fail, is given the inner publishers' failure type.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when neither upstream
    /// nor the inner publishers can fail.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher; the inner publishers,
    /// which cannot fail, are given upstream's failure type.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>>
    {
        Publishers.SwitchToLatest(upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
    }
}

extension Publishers {
    /// A publisher that flattens nested publishers, republishing only the elements of the most
    /// recent one.
    ///
    /// Downstream receives the subscription before upstream is subscribed; upstream is asked for
    /// `.unlimited`. A new publisher cancels the previous one and, once subscribed, is asked for
    /// everything downstream requested and has not received; later requests pass straight to it.
    ///
    /// A synchronous one-shot inner publisher (`Just`, `Optional`, `Result`, `Fail`, stages over
    /// them) or an `Empty` is not subscribed to: its cursor waits for demand in the subscription,
    /// which is what a subscription to it would do.
    @frozen
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        public typealias Output = P.Output
        public typealias Failure = P.Failure
        public typealias _Cursor = _FlattenCursor<Upstream._Cursor, P>

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that “flattens” nested publishers.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = _SwitchToLatestSubscription<P, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }

        /// Fused for the consumers that ask for `.unlimited` at once: a synchronous inner publisher
        /// has sent everything and finished before the next one arrives, so there is never one to
        /// switch away from, and the stream is `flatMap`'s (see `_FlattenCursor`).
        @inlinable public static var _isFusable: Bool { Upstream._fusesUnderAnyDemand && P._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor {
            _FlattenCursor(upstream: upstream._makeCursor(), cancelsUpstreamOnFailure: true, isStarved: false) { $0 }
        }
    }
}

/// The subscriber of one inner publisher; its generation tells a replaced publisher's signals apart.
@frozen @usableFromInline
struct _SwitchToLatestInner<P: Publisher, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline typealias Input = P.Output
    @usableFromInline typealias Failure = P.Failure

    @usableFromInline let parent: _SwitchToLatestSubscription<P, Downstream>
    @usableFromInline let generation: UInt
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(parent: _SwitchToLatestSubscription<P, Downstream>, generation: UInt) {
        self.parent = parent
        self.generation = generation
        combineIdentifier = CombineIdentifier()
    }

    @inlinable func receive(subscription: any Subscription) { parent.innerSubscribed(subscription, generation: generation) }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand {
        parent.lifetime.call(parent) { parent.innerSent(input, generation: generation) } ?? .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        parent.lifetime.call(parent) { parent.innerCompleted(completion, generation: generation) }
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [("parentSubscription", CombineIdentifier(parent))]) }
}

/// Follows the latest inner publisher: one `Lock` over the fields below, never held while calling out.
///
/// Whoever sets `delivering` is the only caller of downstream until it clears it (the drain):
/// values accepted meanwhile wait in `queue`, a one-shot inner's cursor waits in `parked`, and
/// demand downstream returns for a value whose publisher cannot be answered (it was replaced, or
/// never subscribed) is owed to the latest subscribed one.
@usableFromInline
final class _SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, Subscriber, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline typealias Value = P.Output
    @usableFromInline typealias Input = P
    @usableFromInline typealias Failure = P.Failure

    // The stream's phase.
    @usableFromInline static var awaitingUpstream: UInt8 { 0 }
    @usableFromInline static var running: UInt8 { 1 }
    @usableFromInline static var upstreamFinished: UInt8 { 2 }
    @usableFromInline static var terminated: UInt8 { 3 }

    // The latest inner publisher's state.
    @usableFromInline static var noInner: UInt8 { 0 }
    /// Also after upstream failed: Combine still asks the late subscription for the demand.
    @usableFromInline static var awaitingInner: UInt8 { 1 }
    @usableFromInline static var subscribedInner: UInt8 { 2 }
    /// A one-shot inner publisher's cursor, waiting for demand in `parked`.
    @usableFromInline static var parkedInner: UInt8 { 3 }
    /// An `Empty` that never completes.
    @usableFromInline static var unendingInner: UInt8 { 4 }

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let isDone = Atomic<Bool>(false)

    @exclusivity(unchecked) @usableFromInline var phase: UInt8 = 0
    @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var innerPhase: UInt8 = 0
    @exclusivity(unchecked) @usableFromInline var inner: (any Subscription)?
    @exclusivity(unchecked) @usableFromInline var parked: P._Cursor?
    @exclusivity(unchecked) @usableFromInline var generation: UInt = 0
    /// Requested by downstream and not yet delivered (queued values are already counted).
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var owed = Subscribers.Demand.none
    @exclusivity(unchecked) @usableFromInline var queue = _FlatMapQueue<Value>()
    @exclusivity(unchecked) @usableFromInline var delivering = false
    @exclusivity(unchecked) @usableFromInline var pendingFailure: Downstream.Failure?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: _SwitchToLatestSubscription.self).downstream.release() }
    }

    /// Inside a `lifetime` call: the stream's completion, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    @inlinable var isExhausted: Bool {
        phase == Self.upstreamFinished && innerPhase == Self.noInner && queue.isEmpty
    }

    /// The latest inner publisher is subscribed to and has not completed.
    @inlinable var isInnerLive: Bool { innerPhase == Self.awaitingInner || innerPhase == Self.subscribedInner }

    @inlinable
    func terminate(awaitingInner: Bool = false) {
        phase = Self.terminated
        isDone.store(true, ordering: .relaxed)
        upstream = nil
        inner = nil
        innerPhase = awaitingInner ? Self.awaitingInner : Self.noInner
        parked = nil
        queue.removeAll()
    }

    // MARK: Upstream (in Combine, the subscription is upstream's subscriber)

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase == Self.awaitingUpstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = Self.running
        upstream = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ publisher: P) -> Subscribers.Demand {
        lifetime.call(self) { upstreamSent(publisher) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) { upstreamCompleted(completion) }
    }

    @inlinable
    func upstreamSent(_ publisher: P) -> Subscribers.Demand {
        guard !isDone.load(ordering: .relaxed) else { return .none }
        let isOneShot = P._isFusable && P._Cursor._yieldsAtMostOneValue
        let isEmpty = !isOneShot && P.self == Empty<Value, Downstream.Failure>.self
        // Making a cursor runs no user closure; the stages run when it is pulled.
        let cursor = isOneShot ? publisher._makeCursor() : nil
        lock.lock()
        guard phase == Self.running else {
            lock.unlock()
            return .none
        }
        let previous = innerPhase == Self.subscribedInner ? inner : nil
        inner = nil
        parked = nil
        generation &+= 1
        let current = generation
        if var cursor {
            if cursor.isExhausted {
                // Nothing to wait for: it completes at once, as its subscription would.
                innerPhase = Self.noInner
                lock.unlock()
                previous?.cancel()
                if case .failure(let error) = cursor._completion() { innerFailed(error, generation: current) }
                return .none
            }
            innerPhase = Self.parkedInner
            parked = cursor
            guard !delivering, demand != .none else {
                lock.unlock()
                previous?.cancel()
                return .none
            }
            delivering = true
            lock.unlock()
            previous?.cancel()
            lock.lock()
            drain()
        } else if isEmpty {
            let completesAtOnce = unsafeBitCast(publisher, to: Empty<Value, Downstream.Failure>.self).completeImmediately
            innerPhase = completesAtOnce ? Self.noInner : Self.unendingInner
            lock.unlock()
            previous?.cancel()
        } else {
            innerPhase = Self.awaitingInner
            lock.unlock()
            previous?.cancel()
            publisher.subscribe(_SwitchToLatestInner(parent: self, generation: current))
        }
        return .none
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
            let current = innerPhase == Self.subscribedInner ? inner : nil
            fail(error, cancelling: current, awaitingInner: innerPhase == Self.awaitingInner)
        }
    }

    // MARK: The inner publishers

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, generation: UInt) {
        lock.lock()
        let ended = phase == Self.terminated
        guard generation == self.generation, innerPhase == Self.awaitingInner else {
            // A replaced publisher's subscription, or a second one, is cancelled; the latest
            // publisher completed: while the stream runs, Combine leaves it alone.
            let leaveAlone = generation == self.generation && innerPhase == Self.noInner && !ended
            lock.unlock()
            if !leaveAlone { subscription.cancel() }
            return
        }
        let ask = demand
        if ended {
            // Upstream failed meanwhile: Combine asks for the demand and keeps nothing.
            innerPhase = Self.noInner
        } else {
            inner = subscription
            innerPhase = Self.subscribedInner
        }
        lock.unlock()
        if ask != .none { subscription.request(ask) }
    }

    @inlinable
    func innerSent(_ input: Value, generation: UInt) -> Subscribers.Demand {
        lock.lock()
        // A replaced or completed publisher's value is ignored. The latest may send before its
        // subscription arrives, but never beyond the demand it was given: Combine traps.
        guard phase != Self.terminated, generation == self.generation, isInnerLive else {
            lock.unlock()
            return .none
        }
        guard demand != .none else {
            lock.unlock()
            preconditionFailure("API violation: SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand")
        }
        if demand != .unlimited { demand -= 1 }
        guard !delivering else {
            queue.append(input)
            lock.unlock()
            return .none
        }
        delivering = true
        lock.unlock()
        let more = downstream.with { $0.receive(input) }
        lock.lock()
        var answer = Subscribers.Demand.none
        if more != .none && phase != Self.terminated {
            demand += more
            // The answer goes to the publisher that sent the value only if it is still the latest.
            if generation == self.generation && isInnerLive { answer = more } else { owed += more }
        }
        drain()
        return answer
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>, generation: UInt) {
        lock.lock()
        guard phase != Self.terminated, generation == self.generation, isInnerLive else {
            return lock.unlock()
        }
        guard innerPhase != Self.awaitingInner else {
            lock.unlock()
            preconditionFailure("API violation: SwitchToLatest's inner publisher completed before sending its subscription")
        }
        switch completion {
        case .finished:
            inner = nil
            innerPhase = Self.noInner
            guard !delivering, isExhausted else { return lock.unlock() }
            terminate()
            lock.unlock()
            complete(.finished)
        case .failure(let error):
            fail(error, cancelling: upstream)
        }
    }

    /// A one-shot inner publisher failed: upstream is cancelled and the stream fails.
    @inlinable
    func innerFailed(_ error: Downstream.Failure, generation: UInt) {
        lock.lock()
        guard phase != Self.terminated, generation == self.generation else { return lock.unlock() }
        fail(error, cancelling: upstream)
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        lock.lock()
        guard phase != Self.terminated else { return lock.unlock() }
        self.demand += demand
        if innerPhase == Self.subscribedInner, let current = inner {
            lock.unlock()
            current.request(demand)
        } else if innerPhase == Self.parkedInner && !delivering {
            delivering = true
            if lifetime.call(self, { drain() }) == nil {
                delivering = false
                lock.unlock()
            }
        } else {
            lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase != Self.terminated else { return lock.unlock() }
        let upstream = self.upstream
        let current = innerPhase == Self.subscribedInner ? inner : nil
        let dropped = parked
        terminate()
        pendingFailure = nil
        lock.unlock()
        // Combine cancels the inner publisher first, then upstream.
        current?.cancel()
        upstream?.cancel()
        lifetime.end(self)
        _ = dropped  // let go of outside the lock: it holds the inner publisher's closures
    }

    // MARK: Endings and delivery (entered with the lock held; each releases it)

    /// Fails the stream after cancelling `other`, the side that did not fail.
    @inlinable
    func fail(_ error: Downstream.Failure, cancelling other: (any Subscription)?, awaitingInner: Bool = false) {
        terminate(awaitingInner: awaitingInner)
        let deliverNow = !delivering
        if !deliverNow { pendingFailure = error }
        lock.unlock()
        other?.cancel()
        if deliverNow { complete(.failure(error)) }
    }

    /// Run by the one caller that set `delivering`, until there is nothing it may do: passes owed
    /// demand on, delivers queued values, pulls a parked cursor while there is demand, then
    /// delivers a failure that arrived meanwhile or the final `.finished`.
    @inlinable
    func drain() {
        while true {
            if let failure = pendingFailure {
                pendingFailure = nil
                delivering = false
                lock.unlock()
                complete(.failure(failure))
                return
            }
            if phase == Self.terminated {
                delivering = false
                lock.unlock()
                return
            }
            if owed != .none {
                let more = owed
                owed = .none
                // Without a subscribed inner publisher, the next one is asked for all of
                // `demand`, this included, when it is subscribed.
                if innerPhase == Self.subscribedInner, let current = inner {
                    lock.unlock()
                    current.request(more)
                    lock.lock()
                    continue
                }
            }
            if !queue.isEmpty {
                let value = queue.removeFirst()
                lock.unlock()
                let more = downstream.with { $0.receive(value) }
                lock.lock()
                if more != .none && phase != Self.terminated {
                    demand += more
                    owed += more
                }
                continue
            }
            if innerPhase == Self.parkedInner && demand != .none, var cursor = parked {
                // Pulling it is what its subscription would do on this request; it ends it.
                parked = nil
                innerPhase = Self.noInner
                let current = generation
                lock.unlock()
                let (value, completion) = cursor._takeAtMostOne()
                lock.lock()
                if let value, phase != Self.terminated, current == generation {
                    if demand != .unlimited { demand -= 1 }
                    lock.unlock()
                    let more = downstream.with { $0.receive(value) }
                    lock.lock()
                    if more != .none && phase != Self.terminated {
                        demand += more
                        owed += more
                    }
                }
                if case .failure(let error) = completion, phase != Self.terminated, current == generation {
                    fail(error, cancelling: upstream)
                    lock.lock()
                }
                continue
            }
            if isExhausted {
                terminate()
                delivering = false
                lock.unlock()
                complete(.finished)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }
}
