/// What `PassthroughSubject` and `CurrentValueSubject` share: subscribers, the completion once
/// sent, and the upstream subscriptions handed over by `send(subscription:)`.
///
/// One recursive lock guards all of it and is held while a value fans out. So `send` costs one
/// uncontended lock and no allocation; deliveries to each subscriber are serial even when several
/// threads send; and a subscriber may send, subscribe or cancel from inside `receive` (the lock
/// is recursive, and the fan-out walks a snapshot of the subscriber list).
@usableFromInline
final class SubjectCore<Output, Failure: Error> {
    @usableFromInline let lock = RecursiveLock()
    @exclusivity(unchecked)
    @usableFromInline var conduits: ContiguousArray<ConduitBase<Output, Failure>> = []
    @exclusivity(unchecked)
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    @exclusivity(unchecked)
    @usableFromInline var upstreams: [any Subscription] = []
    @exclusivity(unchecked)
    @usableFromInline var hasDemand = false
    /// Counts the values sent. A current-value subscriber that received a value as its owed current
    /// value (from a `request` made during that very send) is not offered it again.
    @exclusivity(unchecked)
    @usableFromInline var sendCount: UInt64 = 0
    @usableFromInline let name: String
    /// For `CurrentValueSubject`: the value a subscriber receives when it first asks.
    @usableFromInline let currentValue: (() -> Output)?

    /// `asksUpstreamAtOnce`: ask each upstream subscription for `.unlimited` as soon as it
    /// arrives (`CurrentValueSubject`), rather than once a subscriber has asked (`PassthroughSubject`).
    @usableFromInline
    init(name: String, currentValue: (() -> Output)?, asksUpstreamAtOnce: Bool = false) {
        self.name = name
        self.currentValue = currentValue
        hasDemand = asksUpstreamAtOnce
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    @inlinable @inline(__always)
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(core: self, downstream: subscriber)
        conduits.append(conduit)
        // Still under the (recursive) lock: a completion sent from another thread cannot reach the
        // subscriber before its subscription does.
        subscriber.receive(subscription: conduit)
        lock.unlock()
    }

    @inlinable
    func send(_ value: Output) {
        lock.lock()
        defer { lock.unlock() }
        guard completion == nil else { return }
        sendCount &+= 1
        let version = sendCount
        for conduit in conduits { conduit.offerEntry(conduit, value, version) }
    }

    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        defer { lock.unlock() }
        guard self.completion == nil else { return }
        self.completion = completion
        let receivers = conduits
        conduits = []
        upstreams = []
        for conduit in receivers { conduit.finish(completion) }
    }

    @usableFromInline
    func send(subscription: any Subscription) {
        lock.lock()
        upstreams.append(subscription)
        let askNow = hasDemand
        lock.unlock()
        if askNow { subscription.request(.unlimited) }
    }

    /// Called under the lock when a subscriber asks: the first time any does, upstream is asked
    /// for everything.
    @usableFromInline
    func demandArrived() {
        guard !hasDemand else { return }
        hasDemand = true
        for upstream in upstreams { upstream.request(.unlimited) }
    }

    @usableFromInline
    func remove(_ conduit: ConduitBase<Output, Failure>) {
        lock.withLock { conduits.removeAll { $0 === conduit } }
    }
}

/// One subscriber's subscription to a subject. All its state is guarded by the subject's lock.
@usableFromInline
class ConduitBase<Output, Failure: Error>: Subscription, CustomStringConvertible {
    @usableFromInline unowned(unsafe) let core: SubjectCore<Output, Failure>
    /// Keeps the core alive while the subscriber holds this subscription.
    @usableFromInline let coreOwner: AnyObject
    @exclusivity(unchecked)
    @usableFromInline var demand = Subscribers.Demand.none
    @exclusivity(unchecked)
    @usableFromInline var isDone = false
    /// A `CurrentValueSubject` subscriber is owed the current value when it next asks.
    @exclusivity(unchecked)
    @usableFromInline var owesCurrentValue: Bool
    /// `offer` specialised for the concrete subscriber: a vtable call would run the unspecialised
    /// override, so `Conduit.init` (inlined where the subscriber attaches) makes this closure.
    @usableFromInline let offerEntry: (ConduitBase, Output, UInt64) -> Void
    /// The send (see `SubjectCore.sendCount`) whose value this subscriber received last.
    @exclusivity(unchecked)
    @usableFromInline var receivedVersion = UInt64.max

    @usableFromInline
    init(core: SubjectCore<Output, Failure>, offerEntry: @escaping (ConduitBase, Output, UInt64) -> Void) {
        self.core = core
        coreOwner = core
        owesCurrentValue = core.currentValue != nil
        self.offerEntry = offerEntry
    }

    @usableFromInline var description: String { core.name }


    /// Delivers the completion. Called under the subject's lock.
    @usableFromInline func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("ConduitBase.finish is overridden by Conduit") }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        core.lock.lock()
        defer { core.lock.unlock() }
        guard !isDone else { return }
        self.demand += demand
        core.demandArrived()
        if owesCurrentValue, let currentValue = core.currentValue {
            owesCurrentValue = false
            offerEntry(self, currentValue(), core.sendCount)
        }
    }

    @usableFromInline
    func cancel() {
        core.lock.lock()
        let wasActive = !isDone
        isDone = true
        core.lock.unlock()
        if wasActive { core.remove(self) }
    }
}

@usableFromInline
final class Conduit<Downstream: Subscriber>: ConduitBase<Downstream.Input, Downstream.Failure> {
    @usableFromInline let downstream: Downstream

    @inlinable
    init(core: SubjectCore<Downstream.Input, Downstream.Failure>, downstream: Downstream) {
        self.downstream = downstream
        super.init(core: core) { conduit, value, version in unsafeDowncast(conduit, to: Conduit.self).offer(value, version: version) }
    }

    @inlinable
    func offer(_ value: Downstream.Input, version: UInt64) {
        guard !isDone, receivedVersion != version else { return }
        guard demand != .none else {
            // A current-value subscriber that misses a value gets the latest when it next asks.
            if core.currentValue != nil { owesCurrentValue = true }
            return
        }
        owesCurrentValue = false
        receivedVersion = version
        if demand != .unlimited { demand -= 1 }
        let more = downstream.receive(value)
        if more != .none, !isDone { demand += more }
    }

    @inlinable
    override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard !isDone else { return }
        isDone = true
        downstream.receive(completion: completion)
    }
}
