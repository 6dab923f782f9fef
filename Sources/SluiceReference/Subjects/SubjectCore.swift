// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// What `PassthroughSubject` and `CurrentValueSubject` share: the list of subscribers, the
/// completion once sent, and the upstream subscriptions handed over by `send(subscription:)`.
///
/// Upstream subscriptions are asked for `.unlimited`, each once, as soon as the subject wants
/// values: a `PassthroughSubject` when any subscriber has first asked for anything (until then
/// they are kept but not asked), a `CurrentValueSubject` at once, as Combine does. When the
/// subject goes away, they are cancelled.
///
/// Lifetimes: a subscriber is let go of when it cancels and when the subject completes. As in
/// Combine, an active subscription keeps its subject alive (`holding`), and lets go of it when it
/// ends: the subject is freed after its last active subscription ends, not before.
final class SubjectCore<Output, Failure: Error> {
    private let lock = Lock()
    private var conduits: [Conduit<Output, Failure>] = []
    private var completion: Subscribers.Completion<Failure>?
    private var upstreams: [any Subscription] = []
    private var wantsUpstream: Bool
    private let name: String
    /// For `CurrentValueSubject`: the current value and its version, read when a subscriber is owed it.
    private let currentValue: (() -> (value: Output, version: UInt64))?

    /// `asksUpstreamAtOnce`: ask upstream subscriptions as soon as they arrive, rather than when
    /// a subscriber first asks.
    init(name: String, currentValue: (() -> (value: Output, version: UInt64))?, asksUpstreamAtOnce: Bool = false) {
        self.name = name
        self.currentValue = currentValue
        wantsUpstream = asksUpstreamAtOnce
    }

    /// A subject is freed once no active subscription holds it; the upstream subscriptions it was
    /// handed are cancelled then.
    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// `subject`: the object the subscription keeps alive while it is active (the subject, or
    /// `@Published`'s storage).
    func attach<S: Subscriber>(_ subscriber: S, holding subject: AnyObject)
    where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(
            name: name, core: self, subject: subject, downstream: AnySubscriber(subscriber),
            currentValue: currentValue)
        // Held until the subscription has been handed over, so that a completion sent from
        // another thread cannot reach the subscriber before its subscription does. The conduit
        // is new: nobody else can hold this lock yet, so taking it here cannot deadlock.
        conduit.deliveryLock.lock()
        defer { conduit.deliveryLock.unlock() }
        conduits.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Offers the value to every subscriber; each takes it only if it has demand. `version`
    /// identifies a `CurrentValueSubject`'s value, so that a subscriber that already received this
    /// very value as its owed current value does not receive it again.
    func send(_ value: Output, version: UInt64 = 0) {
        lock.lock()
        guard completion == nil else {
            lock.unlock()
            return
        }
        let receivers = conduits
        lock.unlock()
        for conduit in receivers { conduit.offer(value, version: version) }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard self.completion == nil else {
            lock.unlock()
            return
        }
        self.completion = completion
        // Taken out under the lock and dropped after it: a completed subject keeps neither its
        // subscribers nor the upstream subscriptions it was handed (they are not cancelled).
        let receivers = conduits
        let released = upstreams
        conduits = []
        upstreams = []
        lock.unlock()
        for conduit in receivers { conduit.finish(completion) }
        withExtendedLifetime(released) {}
    }

    func send(subscription: any Subscription) {
        lock.lock()
        upstreams.append(subscription)
        let askNow = wantsUpstream
        lock.unlock()
        if askNow { subscription.request(.unlimited) }
    }

    /// A subscriber asked for values: the first time any does, upstream is asked for everything.
    fileprivate func demandArrived() {
        lock.lock()
        guard !wantsUpstream else {
            lock.unlock()
            return
        }
        wantsUpstream = true
        let toAsk = upstreams
        lock.unlock()
        for upstream in toAsk { upstream.request(.unlimited) }
    }

    /// Forgets a cancelled subscriber's conduit (the caller holds it, so nothing is freed under the lock).
    fileprivate func remove(_ conduit: Conduit<Output, Failure>) {
        lock.withLock { conduits.removeAll { $0 === conduit } }
    }
}

/// One subscriber's subscription to a subject: its own demand under its own lock, and delivery
/// under a recursive lock so that values reach the subscriber one at a time, yet a subscriber
/// may send into the subject from inside `receive`.
///
/// The subscriber and the subject are let go of when it cancels and when the subject completes
/// (`downstream` becomes `nil`); a delivery in flight holds its own copy until it returns.
private final class Conduit<Output, Failure: Error>: Subscription, Introspected {
    private let lock = Lock()
    /// Taken around every call into the subscriber (and by `attach` around the subscription).
    let deliveryLock = Lock(recursive: true)
    private var downstream: AnySubscriber<Output, Failure>?
    private var demand = Subscribers.Demand.none
    /// A `CurrentValueSubject` subscriber is owed the current value when it next asks.
    private var owesCurrentValue: Bool
    /// The version of the current value this subscriber last received (current-value subjects).
    private var receivedVersion: UInt64?
    /// The version of the last value handed over as the owed current value. Sends are not one
    /// atomic step across threads, so the offers of that value and of older ones may still be on
    /// their way: they are not delivered (the subscriber has the newer value), so none arrives twice.
    private var owedFloor: UInt64?
    private let currentValue: (() -> (value: Output, version: UInt64))?
    private weak var core: SubjectCore<Output, Failure>?
    /// The subject, held while the subscription is active, as Combine's subscription holds it.
    private var subject: AnyObject?
    let description: String
    /// How many deliveries of `offer` run one inside the other; touched only under `deliveryLock`.
    private var nesting = 0
    /// Values sent from inside the deepest delivery allowed, waiting for it to return (see `offer`);
    /// touched only under `deliveryLock`.
    private var deferred: [(value: Output, version: UInt64)] = []

    init(
        name: String, core: SubjectCore<Output, Failure>, subject: AnyObject,
        downstream: AnySubscriber<Output, Failure>, currentValue: (() -> (value: Output, version: UInt64))?
    ) {
        description = name
        self.core = core
        self.subject = subject
        self.downstream = downstream
        self.currentValue = currentValue
        owesCurrentValue = currentValue != nil
    }

    /// Combine's children; once the subscription has ended it shows no subject and no subscriber.
    var customMirror: Mirror {
        lock.withLock {
            let subject: String? = downstream == nil ? nil : description
            return Mirror(
                self,
                children: [
                    ("parent", subject as Any), ("downstream", downstream as Any), ("demand", demand),
                    ("subject", subject as Any),
                ])
        }
    }

    /// Offers a value. A send from inside `receive` re-enters here and is delivered at once, as in
    /// Combine, up to `nestedDeliveryLimit` deliveries deep; deeper, it waits in `deferred` and the
    /// delivery one level up delivers it when its `receive` returns, so that the stack stays bounded.
    func offer(_ value: Output, version: UInt64) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        guard nesting < nestedDeliveryLimit else {
            deferred.append((value, version))
            return
        }
        nesting += 1
        deliver(value, version: version)
        if nesting == nestedDeliveryLimit {
            while !deferred.isEmpty {
                let next = deferred.removeFirst()
                deliver(next.value, version: next.version)
            }
        }
        nesting -= 1
    }

    /// Under `deliveryLock`: delivers the value if the subscriber has demand for it.
    private func deliver(_ value: Output, version: UInt64) {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        if currentValue != nil, let owedFloor, version <= owedFloor {
            // This value, or a newer one, was delivered as the owed current value (by a request
            // made during this send, or on another thread while it was on its way).
            lock.unlock()
            return
        }
        guard demand > 0 else {
            // A current-value subscriber that misses a value gets the latest when it asks.
            if currentValue != nil { owesCurrentValue = true }
            lock.unlock()
            return
        }
        demand -= 1
        owesCurrentValue = false
        receivedVersion = version
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 { lock.withLock { demand += more } }
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        let (target, subject) = lock.withLock { end() }
        target?.receive(completion: completion)
        withExtendedLifetime(subject) {}
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        let deliverCurrent = owesCurrentValue
        lock.unlock()
        core?.demandArrived()
        if deliverCurrent, let currentValue {
            deliverOwed(currentValue)
        }
    }

    private func deliverOwed(_ currentValue: () -> (value: Output, version: UInt64)) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        lock.lock()
        guard let downstream, owesCurrentValue, demand > 0 else {
            lock.unlock()
            return
        }
        let current = currentValue()
        owesCurrentValue = false
        guard receivedVersion != current.version, owedFloor.map({ current.version > $0 }) ?? true else {
            lock.unlock()
            return
        }
        demand -= 1
        receivedVersion = current.version
        owedFloor = current.version
        lock.unlock()
        let more = downstream.receive(current.value)
        if more > 0 { lock.withLock { demand += more } }
    }

    /// Lets go of the subscriber: nothing reaches it any more. It is taken out under the lock and
    /// dropped after it, since its deinit may run any code.
    func cancel() {
        let released = lock.withLock { end() }
        core?.remove(self)
        withExtendedLifetime(released) {}
    }

    /// Under `lock`: ends the subscription, handing over the subscriber and the subject for the
    /// caller to drop once the lock is released.
    private func end() -> (AnySubscriber<Output, Failure>?, AnyObject?) {
        (downstream.take(), subject.take())
    }
}
