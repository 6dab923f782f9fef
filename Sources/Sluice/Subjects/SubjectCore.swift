// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// What `PassthroughSubject` and `CurrentValueSubject` share: subscribers, the completion once
/// sent, the upstream subscriptions handed over by `send(subscription:)`, and a current value's
/// value.
///
/// The subject's own lock is a `Lock`, held only to read or change that state and never while
/// calling out. A send takes it once, to count the send and to take the subscriber list (a retain of
/// the array, not a copy), and then offers the value to each subscriber outside it. Each
/// subscriber's `Conduit` serialises its own deliveries with a `ReentrantLock`: values reach one
/// subscriber one at a time even when several threads send, and a subscriber may send into the
/// subject it listens to. A `request` or `cancel` waits for no delivery (its demand and its flag are
/// atomic words), so a subscriber of one subject may request from or cancel another subject's
/// subscription while that subject delivers on another thread, without a lock-order inversion.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: CustomStringConvertible {
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var conduits: ContiguousArray<ConduitBase<Output, Failure>> = []
    /// The completion has been sent; `failure` holds its error if it was a failure.
    @exclusivity(unchecked)
    @usableFromInline var completed = false
    @exclusivity(unchecked)
    @usableFromInline var failure: Box<Failure>?
    @exclusivity(unchecked)
    @usableFromInline var upstreams: [any Subscription] = []
    /// Upstream subscriptions are asked as they arrive. Written under `lock`; read without it by
    /// `demandArrived`, which then has nothing to do.
    @usableFromInline let hasDemand: Atomic<Bool>
    /// Counts the values sent: a value's version. A current-value subscriber that received a value
    /// as its owed current value is not offered that value (or an older one) again.
    @exclusivity(unchecked)
    @usableFromInline var sendCount: UInt64 = 0
    /// `CurrentValueSubject`'s value; `nil` for `PassthroughSubject`.
    ///
    /// This and `failure` are boxed (see `Box`) rather than `Output?` and `Completion<Failure>?`
    /// fields, which would be looked up each time a subject is freed.
    @usableFromInline let current: Box<Output>?
    /// The version (`sendCount` when it was sent) of `current`. `CurrentValueSubject` stores a value
    /// before delivering it; `@Published` after (`publish`), so the two may differ meanwhile.
    @exclusivity(unchecked)
    @usableFromInline var currentVersion: UInt64 = 0
    @usableFromInline let name: String

    /// The subject's name: the core stands for its subject in a conduit's mirror.
    @usableFromInline var description: String { name }

    /// `current`: a `CurrentValueSubject`'s initial value, which also makes the subject ask each
    /// upstream subscription for `.unlimited` as soon as it arrives (a `PassthroughSubject` asks once
    /// a subscriber has asked).
    @inlinable
    init(name: String, current: Output?) {
        self.name = name
        self.current = current.map(Box.init)
        hasDemand = Atomic(current != nil)
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// The completion, once sent. Under `lock`.
    @inlinable var completion: Subscribers.Completion<Failure>? {
        guard completed else { return nil }
        return failure.map { .failure($0.value) } ?? .finished
    }

    /// `subject`: the object the subscription keeps alive while it is active, as Combine's does (the
    /// subject, or `@Published`'s): it is freed after its last active subscription ends.
    @inlinable @inline(__always)
    func attach<S: Subscriber>(_ subscriber: S, holding subject: AnyObject)
    where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(core: self, subject: subject, downstream: Releasable(subscriber))
        // Held until the subscription is handed over, so that a value or completion sent from
        // another thread cannot reach the subscriber before its subscription. Nobody else can hold
        // the new conduit's lock yet, so taking it under the subject's lock cannot block.
        conduit.delivery.lock()
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
        // A cancel from inside `receive(subscription:)` (or from a value delivered in it) leaves
        // the release to this unlock.
        if conduit.delivery.unlock() { conduit.release() }
    }

    /// Sends a value to every subscriber with demand. `storingAfterCompletion`: set a current
    /// value's value even when the subject has completed (what setting `value` does).
    @inlinable
    func send(_ value: Output, storingAfterCompletion: Bool = false) {
        lock.lock()
        guard !completed else {
            if storingAfterCompletion { current?.value = value }
            lock.unlock()
            return
        }
        sendCount &+= 1
        let version = sendCount
        if let current {
            current.value = value
            currentVersion = version
        }
        let receivers = conduits
        lock.unlock()
        offer(value, version: version, to: receivers)
    }

    /// Offers a value to each subscriber of `receivers`, a snapshot of `conduits` that keeps them
    /// alive: a conduit is not retained again, which would be two more atomic operations per
    /// subscriber per send.
    @inlinable @inline(__always)
    func offer(_ value: Output, version: UInt64, to receivers: ContiguousArray<ConduitBase<Output, Failure>>) {
        receivers.withUnsafeBufferPointer { conduits in
            for index in conduits.indices {
                Unmanaged.passUnretained(conduits[index])._withUnsafeGuaranteedRef { $0.offerEntry($0, value, version) }
            }
        }
    }

    /// Sends a value to every subscriber with demand and only then stores it as the current value
    /// (`@Published`: its subscribers see the value before the property has it). Of values sent at
    /// once from several threads, the last sent is stored.
    @inlinable
    func publish(_ value: Output) {
        lock.lock()
        sendCount &+= 1
        let version = sendCount
        let receivers = conduits
        lock.unlock()
        offer(value, version: version, to: receivers)
        lock.lock()
        if version > currentVersion {
            current.unsafelyUnwrapped.value = value
            currentVersion = version
        }
        lock.unlock()
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !completed else {
            lock.unlock()
            return
        }
        completed = true
        if case .failure(let error) = completion {
            failure = Box(error)
        }
        let receivers = conduits
        conduits = []
        upstreams = []
        lock.unlock()
        for conduit in receivers { conduit.finishEntry(conduit, completion) }
    }

    @usableFromInline
    func send(subscription: any Subscription) {
        lock.lock()
        upstreams.append(subscription)
        let askNow = hasDemand.load(ordering: .relaxed)
        lock.unlock()
        if askNow { subscription.request(.unlimited) }
    }

    /// The current value and its version (`CurrentValueSubject`).
    @inlinable
    func currentValue() -> (value: Output, version: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        return (current.unsafelyUnwrapped.value, currentVersion)
    }

    /// A subscriber asked: the first time any does, upstream is asked for everything.
    @usableFromInline
    func demandArrived() {
        guard !hasDemand.load(ordering: .acquiring) else { return }
        lock.lock()
        guard !hasDemand.load(ordering: .relaxed) else {
            lock.unlock()
            return
        }
        hasDemand.store(true, ordering: .releasing)
        let toAsk = upstreams
        lock.unlock()
        for upstream in toAsk { upstream.request(.unlimited) }
    }

    /// Leaves the conduits of a send in progress as they were: the list without `conduit` is a new
    /// buffer, never the old one changed in place. (In place, Swift's copy-on-write would be as
    /// correct, ordered by the buffer's reference count, which the thread sanitizer cannot see.)
    @inlinable
    func remove(_ conduit: ConduitBase<Output, Failure>) {
        lock.withLock {
            guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return }
            var rest = ContiguousArray<ConduitBase<Output, Failure>>()
            rest.reserveCapacity(conduits.count - 1)
            rest += conduits[..<index]
            rest += conduits[(index + 1)...]
            conduits = rest
        }
    }
}

/// One subscriber's subscription to a subject.
///
/// Its deliveries run under `delivery`, which also guards the `@exclusivity(unchecked)` state below.
/// `request` and `cancel` touch only atomic words (`requested`, `isDone`, `owesCurrentValue`): a
/// delivery folds `requested` into `demand` when it runs out.
///
/// Lifetimes: the subscriber is used only under `delivery`. Whoever ends the subscription (a
/// cancel, the completion) asks `delivery.requestRelease()`: it lets go of the subscriber at once if
/// no delivery runs, and otherwise the running delivery does so when it unlocks, so a cancel from
/// another thread, or from inside `receive`, never frees what a delivery uses.
@usableFromInline
class ConduitBase<Output, Failure: Error>: Subscription, Introspected {
    @usableFromInline unowned(unsafe) let core: SubjectCore<Output, Failure>
    /// Keeps the core alive while the subscriber holds this subscription.
    @usableFromInline let coreOwner: AnyObject
    @usableFromInline let delivery = ReentrantLock()
    /// Demand requested and not yet folded into `demand`.
    @usableFromInline let requested = DemandCounter()
    /// Cancelled or completed: nothing more is delivered.
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// A `CurrentValueSubject` subscriber is owed the current value when it next asks: at first, and
    /// after a value went by while it had no demand. Written only under `delivery`.
    @usableFromInline let owesCurrentValue: Atomic<Bool>
    /// The subject's kind, kept here so that a value does not reach through `core` for it.
    @usableFromInline let isCurrentValue: Bool
    /// The demand a delivery may spend.
    @exclusivity(unchecked)
    @usableFromInline var demand = Subscribers.Demand.none
    /// The version (see `SubjectCore.sendCount`) of the value this subscriber received last.
    @exclusivity(unchecked)
    @usableFromInline var receivedVersion = UInt64.max
    /// The version of the last value handed over as the owed current value. A send is not one atomic
    /// step across threads, so the offer of that value, or of an older one, may still be on its way:
    /// it is not delivered (the subscriber has the newer value), so no value arrives twice.
    @exclusivity(unchecked)
    @usableFromInline var owedFloor: UInt64?
    /// Delivery specialised for the concrete subscriber: a vtable call would run the unspecialised
    /// override, so `Conduit.init` (inlined where the subscriber attaches) makes these closures.
    /// `offerEntry` offers a sent value; `owedEntry` delivers the owed current value; `cancelEntry`
    /// cancels (specialised too: leaving the subject's list in unspecialised code looked up six
    /// type metadata, hundreds of instructions each); `finishEntry` delivers the completion;
    /// `downstreamEntry` shows the subscriber to reflection.
    @usableFromInline let offerEntry: (ConduitBase, Output, UInt64) -> Void
    @usableFromInline let owedEntry: (ConduitBase) -> Void
    @usableFromInline let cancelEntry: (ConduitBase) -> Void
    @usableFromInline let finishEntry: (ConduitBase, Subscribers.Completion<Failure>) -> Void
    @usableFromInline let downstreamEntry: (ConduitBase) -> Any

    @usableFromInline
    init(
        core: SubjectCore<Output, Failure>,
        offerEntry: @escaping (ConduitBase, Output, UInt64) -> Void,
        owedEntry: @escaping (ConduitBase) -> Void,
        cancelEntry: @escaping (ConduitBase) -> Void,
        finishEntry: @escaping (ConduitBase, Subscribers.Completion<Failure>) -> Void,
        downstreamEntry: @escaping (ConduitBase) -> Any
    ) {
        self.core = core
        coreOwner = core
        let isCurrentValue = core.current != nil
        self.isCurrentValue = isCurrentValue
        owesCurrentValue = Atomic(isCurrentValue)
        self.offerEntry = offerEntry
        self.owedEntry = owedEntry
        self.cancelEntry = cancelEntry
        self.finishEntry = finishEntry
        self.downstreamEntry = downstreamEntry
    }

    @usableFromInline var description: String { core.name }

    /// Combine's children; the subject's state (`core`) stands for the subject.
    /// After the subscription ends, the subject shows as `nil`, as Combine's does.
    @usableFromInline var customMirror: Mirror {
        let subject: SubjectCore<Output, Failure>? = isDone.load(ordering: .acquiring) ? nil : core
        return Mirror(
            self,
            children: [
                ("parent", subject as Any), ("downstream", downstreamEntry(self)), ("demand", demand),
                ("subject", subject as Any),
            ])
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        guard !isDone.load(ordering: .relaxed) else { return }
        _ = requested.add(demand)
        core.demandArrived()
        if owesCurrentValue.load(ordering: .acquiring) { owedEntry(self) }
    }

    @usableFromInline
    func cancel() { cancelEntry(self) }

    /// Under `delivery`: whether there is demand, folding in what was requested if none is left.
    /// (`final`, as `mayDeliver()`: a class method would be a vtable call per value.)
    @inlinable @inline(__always)
    final func hasDemandLeft() -> Bool {
        if demand == .none { demand = requested.take() }
        return demand != .none
    }

    /// Under `delivery`: whether a sent value may be delivered now.
    ///
    /// A current-value subscriber that has no demand is owed the current value. It then looks at
    /// `requested` once more: a `request` on another thread either added its demand before that
    /// look (and this value is delivered) or reads `owesCurrentValue` after it was set (and
    /// delivers the owed value itself), so a value is never left owed to a subscriber with demand.
    @inlinable @inline(__always)
    final func mayDeliver() -> Bool {
        guard isCurrentValue else { return hasDemandLeft() }
        if !hasDemandLeft() {
            owesCurrentValue.store(true, ordering: .releasing)
            guard hasDemandLeft() else { return false }
        }
        owesCurrentValue.store(false, ordering: .relaxed)
        return true
    }
}

/// `Held` is its `Releasable<Downstream>` (see `ReleasableSlot`): freeing the conduit then looks no
/// type up.
@usableFromInline
final class Conduit<Held: ReleasableSlot>: ConduitBase<Held.Value.Input, Held.Value.Failure>
where Held.Value: Subscriber {
    @usableFromInline typealias Downstream = Held.Value
    /// Used only under `delivery`; let go of when `delivery` says so.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Held
    /// Values sent from inside the deepest delivery allowed, waiting for it to return (see `offer`).
    /// Used only under `delivery`.
    @exclusivity(unchecked)
    @usableFromInline var deferred: [(value: Downstream.Input, version: UInt64)] = []
    /// The subject, held while the subscription is active as Combine's subscription holds it; let go
    /// of with the subscriber.
    @exclusivity(unchecked)
    @usableFromInline var subject: AnyObject?

    @inlinable
    init(core: SubjectCore<Downstream.Input, Downstream.Failure>, subject: AnyObject, downstream: Held) {
        self.downstream = downstream
        self.subject = subject
        super.init(
            core: core,
            offerEntry: { conduit, value, version in
                unsafeDowncast(conduit, to: Conduit.self).offer(value, version: version)
            },
            owedEntry: { conduit in unsafeDowncast(conduit, to: Conduit.self).deliverOwed() },
            cancelEntry: { conduit in unsafeDowncast(conduit, to: Conduit.self).cancelHere() },
            finishEntry: { conduit, completion in unsafeDowncast(conduit, to: Conduit.self).finish(completion) },
            downstreamEntry: { conduit in unsafeDowncast(conduit, to: Conduit.self).downstream.value as Any })
    }

    /// `cancel()`: ends the subscription, leaves the subject's list, and lets go of the subscriber
    /// now if no delivery runs (otherwise the delivery does when it unlocks).
    @inlinable
    func cancelHere() {
        guard !isDone.exchange(true, ordering: .sequentiallyConsistent) else { return }
        core.remove(self)
        if delivery.requestRelease() { release() }
    }

    /// Lets go of the subscriber and the subject, once, when `delivery` says so.
    @inlinable
    func release() {
        downstream.release()
        subject = nil
    }

    /// Offers a sent value. A send from inside `receive` re-enters here (`delivery` is re-entrant) and
    /// is delivered at once, as in Combine, up to `nestedDeliveryLimit` deliveries deep; deeper, it
    /// waits in `deferred` and the deepest delivery delivers it as soon as its `receive` returns, so
    /// that the stack stays bounded.
    @inlinable @inline(__always)
    func offer(_ value: Downstream.Input, version: UInt64) {
        if _fastPath(delivery.tryLock()) {
            offerLocked(value, version: version)
        } else {
            offerAfterTry(value, version: version)
        }
        if delivery.unlock() { release() }
    }

    /// Takes `delivery` when it was not free: waits for another thread's delivery, or re-enters from
    /// inside `receive`. Re-entered, it delivers at once while shallow; past the limit the value waits
    /// for the deepest delivery, which delivers what waits when its `receive` returns.
    @usableFromInline
    func offerAfterTry(_ value: Downstream.Input, version: UInt64) {
        let nesting = delivery.lockAfterTry()
        guard nesting > 0 else { return offerLocked(value, version: version) }
        guard nesting < nestedDeliveryLimit else {
            deferred.append((value, version))
            return
        }
        offerLocked(value, version: version)
        guard nesting == nestedDeliveryLimit - 1 else { return }
        while !deferred.isEmpty {
            let next = deferred.removeFirst()
            offerLocked(next.value, version: next.version)
        }
    }

    /// Under `delivery`: delivers the value if the subscription is live and has demand for it.
    @inlinable @inline(__always)
    func offerLocked(_ value: Downstream.Input, version: UInt64) {
        // Versions matter only to a current-value subject, whose owed value may overtake a send.
        if !isDone.load(ordering: .relaxed),
            !isCurrentValue || (receivedVersion != version && owedFloor.map({ version > $0 }) ?? true), mayDeliver()
        {
            deliver(value, version: version)
        }
    }

    /// The owed current value, if this subscriber still owes it and has demand.
    @inlinable
    func deliverOwed() {
        delivery.lock()
        if !isDone.load(ordering: .relaxed), owesCurrentValue.load(ordering: .relaxed), hasDemandLeft() {
            owesCurrentValue.store(false, ordering: .relaxed)
            let current = core.currentValue()
            if receivedVersion != current.version, owedFloor.map({ current.version > $0 }) ?? true {
                owedFloor = current.version
                deliver(current.value, version: current.version)
            }
        }
        if delivery.unlock() { release() }
    }

    /// Under `delivery`, with demand left: spends one and delivers.
    @inlinable @inline(__always)
    func deliver(_ value: Downstream.Input, version: UInt64) {
        if demand != .unlimited { demand -= 1 }
        receivedVersion = version
        let more = downstream.with { $0.receive(value) }
        if more != .none { demand += more }
    }

    /// Delivers the completion (and ends the subscription).
    @inlinable
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        delivery.lock()
        if !isDone.exchange(true, ordering: .sequentiallyConsistent) {
            downstream.with { $0.receive(completion: completion) }
            _ = delivery.requestRelease()
        }
        if delivery.unlock() { release() }
    }
}
