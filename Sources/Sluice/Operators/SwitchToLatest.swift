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

/// `switchToLatest`'s state, kept under its subscription's lock. Each event changes it and returns
/// what the subscription does once it has unlocked; nothing here calls out.
///
/// Whoever is told to deliver (`delivering`) is the only caller of downstream until a
/// `nextDelivery` step says it has stopped: values accepted meanwhile wait in `queue`, a one-shot
/// inner publisher's cursor waits in `inner`, and demand downstream returns for a value whose
/// publisher cannot be answered (it was replaced, or never subscribed) is owed to the latest
/// subscribed one.
@usableFromInline
struct _SwitchToLatestState<P: Publisher> {
    @usableFromInline typealias Value = P.Output
    @usableFromInline typealias Failure = P.Failure

    @usableFromInline enum Phase {
        case awaitingUpstream
        case running
        case upstreamFinished
        case terminated
    }

    /// The latest inner publisher.
    @usableFromInline enum Inner {
        case none
        /// Subscribed to, its subscription not yet arrived; also after upstream failed: Combine
        /// still asks the late subscription for the demand.
        case awaiting
        case subscribed(any Subscription)
        /// A one-shot inner publisher's cursor, waiting for demand.
        case parked(P._Cursor)
        /// An `Empty` that never completes.
        case unending
    }

    /// How a new inner publisher is taken.
    @usableFromInline enum Arrival {
        /// A one-shot publisher's cursor, and whether it has ended already.
        case oneShot(P._Cursor, isExhausted: Bool)
        case empty(completesAtOnce: Bool)
        case subscription
    }

    /// What the subscription does after a new inner publisher arrived, once it has cancelled the
    /// previous one.
    @usableFromInline enum Switch {
        case none
        /// The one-shot publisher has ended: its completion, if a failure, fails the stream.
        case endedAtOnce(generation: UInt)
        /// The caller delivers: it parked the one-shot publisher and there is demand.
        case deliver
        case subscribe(generation: UInt)
    }

    @usableFromInline typealias Action = _MachineAction<Failure>

    /// What the delivering caller does next.
    @usableFromInline enum Delivery {
        case value(Value)
        /// Passes owed demand on to the latest inner publisher.
        case request(any Subscription, Subscribers.Demand)
        /// Pulls the parked one-shot cursor of this generation: what its subscription would do.
        case pull(P._Cursor, generation: UInt)
        case completion(Subscribers.Completion<Failure>)
        /// Nothing to deliver now; the stream is live and someone else may deliver.
        case idle
        /// The stream has ended (cancelled, or its failure delivered by another caller).
        case ended
    }

    @usableFromInline var phase = Phase.awaitingUpstream
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var inner = Inner.none
    @usableFromInline var generation: UInt = 0
    /// Requested by downstream and not yet delivered (queued values are already counted).
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var owed = Subscribers.Demand.none
    @usableFromInline var queue = _FlatMapQueue<Value>()
    @usableFromInline var delivering = false
    @usableFromInline var pendingFailure: Failure?

    @inlinable init() {}

    @inlinable var isTerminated: Bool { phase == .terminated }

    @inlinable var isExhausted: Bool {
        guard phase == .upstreamFinished, case .none = inner else { return false }
        return queue.isEmpty
    }

    /// The latest inner publisher is subscribed to and has not completed.
    @inlinable var isInnerLive: Bool {
        switch inner {
        case .awaiting, .subscribed: true
        case .none, .parked, .unending: false
        }
    }

    /// The latest inner publisher's subscription, if it has come and the publisher is live.
    @inlinable var subscribedInner: (any Subscription)? {
        guard case .subscribed(let subscription) = inner else { return nil }
        return subscription
    }

    /// Ends the stream; returns the latest inner publisher's state as it was.
    @inlinable @discardableResult
    mutating func terminate(awaitingInner: Bool = false) -> Inner {
        let previous = inner
        phase = .terminated
        upstream = nil
        inner = awaitingInner ? .awaiting : .none
        queue.removeAll()
        return previous
    }

    // MARK: Upstream

    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Action {
        guard phase == .awaitingUpstream else { return .cancel(subscription) }
        phase = .running
        upstream = subscription
        return .request(subscription, .unlimited)
    }

    /// A new inner publisher replaces the latest: the previous one's subscription, to cancel, and
    /// what to do then.
    @inlinable
    mutating func switchTo(_ arrival: Arrival) -> (previous: (any Subscription)?, then: Switch) {
        guard phase == .running else { return (nil, .none) }
        let previous = subscribedInner
        generation &+= 1
        switch arrival {
        case .oneShot(_, isExhausted: true):
            // Nothing to wait for: it completes at once, as its subscription would.
            inner = .none
            return (previous, .endedAtOnce(generation: generation))
        case .oneShot(let cursor, isExhausted: false):
            inner = .parked(cursor)
            guard !delivering, demand != .none else { return (previous, .none) }
            delivering = true
            return (previous, .deliver)
        case .empty(let completesAtOnce):
            inner = completesAtOnce ? .none : .unending
            return (previous, .none)
        case .subscription:
            inner = .awaiting
            return (previous, .subscribe(generation: generation))
        }
    }

    @inlinable
    mutating func upstreamEnded(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard phase == .awaitingUpstream || phase == .running else { return .none }
        switch completion {
        case .finished:
            phase = .upstreamFinished
            upstream = nil
            guard !delivering, isExhausted else { return .none }
            terminate()
            return .end(cancelling: [], .finished)
        case .failure(let error):
            let awaitingInner = if case .awaiting = inner { true } else { false }
            return fail(error, cancelling: subscribedInner, awaitingInner: awaitingInner)
        }
    }

    // MARK: The inner publishers

    @inlinable
    mutating func innerArrived(_ subscription: any Subscription, generation: UInt) -> Action {
        let ended = phase == .terminated
        guard generation == self.generation, case .awaiting = inner else {
            // A replaced publisher's subscription, or a second one, is cancelled; the latest
            // publisher completed: while the stream runs, Combine leaves it alone.
            let completed = if case .none = inner { true } else { false }
            return generation == self.generation && completed && !ended ? .none : .cancel(subscription)
        }
        // Upstream failed meanwhile: Combine asks for the demand and keeps nothing.
        inner = ended ? .none : .subscribed(subscription)
        return demand == .none ? .none : .request(subscription, demand)
    }

    /// What becomes of an inner publisher's value.
    @usableFromInline enum InnerValue {
        /// A replaced or completed publisher's, or one after the end.
        case ignored
        /// Another caller delivers it.
        case queued
        /// The caller delivers it now (it is then the delivering caller).
        case deliver
        /// Beyond the demand the latest publisher was given: Combine traps.
        case beyondDemand
    }

    @inlinable
    mutating func innerValue(_ value: Value, generation: UInt) -> InnerValue {
        // The latest may send before its subscription arrives, but never beyond its demand.
        guard phase != .terminated, generation == self.generation, isInnerLive else { return .ignored }
        guard demand != .none else { return .beyondDemand }
        if demand != .unlimited { demand -= 1 }
        guard !delivering else {
            queue.append(value)
            return .queued
        }
        delivering = true
        return .deliver
    }

    /// Downstream's answer to a value of `generation` delivered by its publisher's caller: the
    /// demand to return to that publisher (only if it is still the latest; otherwise it is owed).
    @inlinable
    mutating func answered(_ more: Subscribers.Demand, generation: UInt) -> Subscribers.Demand {
        guard more != .none && phase != .terminated else { return .none }
        demand += more
        if generation == self.generation && isInnerLive { return more }
        owed += more
        return .none
    }

    @inlinable
    mutating func innerEnded(_ completion: Subscribers.Completion<Failure>, generation: UInt) -> Action {
        guard phase != .terminated, generation == self.generation, isInnerLive else { return .none }
        if case .awaiting = inner {
            preconditionFailure("API violation: SwitchToLatest's inner publisher completed before sending its subscription")
        }
        switch completion {
        case .finished:
            inner = .none
            guard !delivering, isExhausted else { return .none }
            terminate()
            return .end(cancelling: [], .finished)
        case .failure(let error):
            return fail(error, cancelling: upstream)
        }
    }

    /// A one-shot inner publisher failed: upstream is cancelled and the stream fails.
    @inlinable
    mutating func oneShotFailed(_ error: Failure, generation: UInt) -> Action {
        guard phase != .terminated, generation == self.generation else { return .none }
        return fail(error, cancelling: upstream)
    }

    // MARK: Downstream

    /// What a request leads to.
    @usableFromInline enum Request {
        case none
        /// Passes it on to the latest inner publisher.
        case forward(any Subscription)
        /// The caller delivers (it is then the delivering caller): a one-shot cursor waits.
        case deliver
    }

    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> Request {
        guard phase != .terminated else { return .none }
        demand += more
        switch inner {
        case .subscribed(let subscription): return .forward(subscription)
        case .parked where !delivering:
            delivering = true
            return .deliver
        default: return .none
        }
    }

    /// Downstream cancelled: what to cancel, and the state of the latest inner publisher (to let
    /// go of outside the lock: a parked cursor holds the inner publisher's closures); nil if the
    /// stream had ended.
    @inlinable
    mutating func cancelled() -> (upstream: (any Subscription)?, inner: Inner)? {
        guard phase != .terminated else { return nil }
        let upstream = upstream
        let inner = terminate()
        pendingFailure = nil
        return (upstream, inner)
    }

    // MARK: Delivery

    /// The delivering caller's next step, after downstream answered `more` to the last value:
    /// passes owed demand on, delivers queued values, pulls a parked cursor while there is
    /// demand, then delivers a failure that arrived meanwhile or the final `.finished`.
    @inlinable
    mutating func nextDelivery(adding more: Subscribers.Demand) -> Delivery {
        received(more)
        if let failure = pendingFailure {
            pendingFailure = nil
            delivering = false
            return .completion(.failure(failure))
        }
        if phase == .terminated {
            delivering = false
            return .ended
        }
        if owed != .none {
            let more = owed
            owed = .none
            // Without a subscribed inner publisher, the next one is asked for all of `demand`,
            // this included, when it is subscribed.
            if let current = subscribedInner { return .request(current, more) }
        }
        if !queue.isEmpty { return .value(queue.removeFirst()) }
        if case .parked(let cursor) = inner, demand != .none {
            // Pulling it is what its subscription would do on this request; it ends it.
            inner = .none
            return .pull(cursor, generation: generation)
        }
        if isExhausted {
            terminate()
            delivering = false
            return .completion(.finished)
        }
        delivering = false
        return .idle
    }

    /// Downstream's answer to a value the delivering caller delivered: owed to the latest inner
    /// publisher.
    @inlinable
    mutating func received(_ more: Subscribers.Demand) {
        guard more != .none && phase != .terminated else { return }
        demand += more
        owed += more
    }

    /// A pulled cursor's value: true if the caller delivers it (the stream still follows it).
    @inlinable
    mutating func takesPulledValue(generation: UInt) -> Bool {
        guard phase != .terminated, generation == self.generation else { return false }
        if demand != .unlimited { demand -= 1 }
        return true
    }

    /// The delivering caller gives up delivering (the stream's lifetime ended under it).
    @inlinable mutating func stopDelivering() { delivering = false }

    // MARK: Endings

    /// Fails the stream after cancelling `other`, the side that did not fail; the failure waits
    /// for the delivering caller if there is one.
    @inlinable
    mutating func fail(_ error: Failure, cancelling other: (any Subscription)?, awaitingInner: Bool = false) -> Action {
        terminate(awaitingInner: awaitingInner)
        let toCancel: ContiguousArray<any Subscription> = other.map { [$0] } ?? []
        guard !delivering else {
            pendingFailure = error
            return .end(cancelling: toCancel, nil)
        }
        return .end(cancelling: toCancel, .failure(error))
    }
}

/// Follows the latest inner publisher: its `_SwitchToLatestState` under one `Lock`, never held
/// while calling out. `isDone` lets an upstream value be dropped after the end without the lock.
@usableFromInline
final class _SwitchToLatestSubscription<P: Publisher, Downstream: Subscriber>: Subscription, Subscriber, Introspected
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    @usableFromInline typealias Value = P.Output
    @usableFromInline typealias Input = P
    @usableFromInline typealias Failure = P.Failure
    @usableFromInline typealias State = _SwitchToLatestState<P>

    /// Used only inside calls through `lifetime`: the sides' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: _SwitchToLatestSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "SwitchToLatest" }

    /// Changes the state under the lock; publishes its end to `isDone`.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        let result = body(&state)
        if state.isTerminated { isDone.store(true, ordering: .relaxed) }
        lock.unlock()
        return result
    }

    /// Inside a `lifetime` call: the stream's completion, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @inlinable
    func perform(_ action: State.Action) {
        action.perform(complete: complete) { drain(withState { $0.nextDelivery(adding: .none) }) }
    }

    // MARK: Upstream (in Combine, the subscription is upstream's subscriber)

    @inlinable
    func receive(subscription: any Subscription) {
        perform(withState { $0.upstreamArrived(subscription) })
    }

    @inlinable
    func receive(_ publisher: P) -> Subscribers.Demand {
        lifetime.call(self) { upstreamSent(publisher) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) { perform(withState { $0.upstreamEnded(completion) }) }
    }

    @inlinable
    func upstreamSent(_ publisher: P) -> Subscribers.Demand {
        guard !isDone.load(ordering: .relaxed) else { return .none }
        let arrival: State.Arrival
        var cursor: P._Cursor?
        if P._isFusable && P._Cursor._yieldsAtMostOneValue {
            // Making a cursor, or looking at its end, runs no user closure; the stages run when
            // it is pulled.
            var made = publisher._makeCursor()
            let isExhausted = made.isExhausted
            arrival = .oneShot(made, isExhausted: isExhausted)
            cursor = made
        } else if P.self == Empty<Value, Downstream.Failure>.self {
            arrival = .empty(completesAtOnce: unsafeBitCast(publisher, to: Empty<Value, Downstream.Failure>.self).completeImmediately)
        } else {
            arrival = .subscription
        }
        let (previous, then) = withState { $0.switchTo(arrival) }
        previous?.cancel()
        switch then {
        case .none:
            break
        case .endedAtOnce(let generation):
            if case .failure(let error) = cursor?._completion() {
                perform(withState { $0.oneShotFailed(error, generation: generation) })
            }
        case .deliver:
            drain(withState { $0.nextDelivery(adding: .none) })
        case .subscribe(let generation):
            publisher.subscribe(_SwitchToLatestInner(parent: self, generation: generation))
        }
        return .none
    }

    // MARK: The inner publishers

    @inlinable
    func innerSubscribed(_ subscription: any Subscription, generation: UInt) {
        perform(withState { $0.innerArrived(subscription, generation: generation) })
    }

    @inlinable
    func innerSent(_ input: Value, generation: UInt) -> Subscribers.Demand {
        switch withState({ $0.innerValue(input, generation: generation) }) {
        case .ignored, .queued:
            return .none
        case .beyondDemand:
            preconditionFailure("API violation: SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand")
        case .deliver:
            let more = downstream.with { $0.receive(input) }
            let (answer, next) = withState { state in
                (state.answered(more, generation: generation), state.nextDelivery(adding: .none))
            }
            drain(next)
            return answer
        }
    }

    @inlinable
    func innerCompleted(_ completion: Subscribers.Completion<Downstream.Failure>, generation: UInt) {
        perform(withState { $0.innerEnded(completion, generation: generation) })
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        switch withState({ $0.requested(demand) }) {
        case .none:
            break
        case .forward(let inner):
            inner.request(demand)
        case .deliver:
            if lifetime.call(self, { drain(withState { $0.nextDelivery(adding: .none) }) }) == nil {
                withState { $0.stopDelivering() }
            }
        }
    }

    @inlinable
    func cancel() {
        guard let (upstream, inner) = withState({ $0.cancelled() }) else { return }
        // Combine cancels the inner publisher first, then upstream.
        if case .subscribed(let subscription) = inner { subscription.cancel() }
        upstream?.cancel()
        lifetime.end(self)
        _ = inner  // let go of outside the lock: a parked cursor holds the inner publisher's closures
    }

    // MARK: Delivery

    /// The delivering caller's loop, from its first step until there is nothing it may do.
    @inlinable
    func drain(_ first: State.Delivery) {
        var step = first
        while true {
            switch step {
            case .value(let value):
                let more = downstream.with { $0.receive(value) }
                step = withState { $0.nextDelivery(adding: more) }
            case .request(let inner, let demand):
                inner.request(demand)
                step = withState { $0.nextDelivery(adding: .none) }
            case .pull(var cursor, let generation):
                let (value, completion) = cursor._takeAtMostOne()
                var more = Subscribers.Demand.none
                if let value, withState({ $0.takesPulledValue(generation: generation) }) {
                    more = downstream.with { $0.receive(value) }
                }
                if case .failure(let error) = completion {
                    perform(withState { state in
                        state.received(more)
                        return state.oneShotFailed(error, generation: generation)
                    })
                    more = .none
                }
                step = withState { $0.nextDelivery(adding: more) }
            case .completion(let completion):
                complete(completion)
                return
            case .idle, .ended:
                return
            }
        }
    }
}
