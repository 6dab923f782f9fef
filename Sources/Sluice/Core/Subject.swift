// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that exposes a method for outside callers to publish elements.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)
    /// Sends a completion signal to the subscribers.
    func send(completion: Subscribers.Completion<Failure>)
    /// Provides this subject with a subscription to an upstream publisher.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    @inlinable public func send() { send(()) }
}

/// A publisher that provides an explicit means of connecting and cancelling publication.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance with
    /// which to cancel publishing.
    func connect() -> any Cancellable
}

extension Publisher {
    /// Attaches the subject to this publisher; the subject republishes everything it receives.
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let relay = SubjectSubscriber(subject)
        subscribe(relay)
        return AnyCancellable(object: relay)
    }
}

/// Stands between an upstream and a subject: hands the subject a subscription through which it
/// asks upstream for values, and forwards what arrives until cancelled. Inlined where a publisher
/// is subscribed to a subject, so that each value reaches the subject's `send` specialised.
@usableFromInline
final class SubjectSubscriber<Target: Subject>: Subscriber, Subscription, Introspected {
    @usableFromInline typealias Input = Target.Output
    @usableFromInline typealias Failure = Target.Failure

    @usableFromInline let lock = Lock()
    /// As Combine's, it does not keep the subject: upstream holds this relay, and a subject nobody
    /// else holds is freed (its deinit cancels the relay), connected or not
    /// (MulticastTests.testDeallocateConnectedMulticastBeforeCancelling).
    @exclusivity(unchecked)
    @usableFromInline weak var subject: Target?
    @exclusivity(unchecked)
    @usableFromInline var upstream: (any Subscription)?
    /// Upstream's subscription has come, and the relay is not yet cancelled or completed: what a
    /// value checks (testing `upstream` for nil would copy the existential, per value).
    @exclusivity(unchecked)
    @usableFromInline var isForwarding = false

    @inlinable init(_ subject: Target) { self.subject = subject }

    @usableFromInline var description: String { "Subject" }

    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: [("subject", lock.withLock { subject } as Any)])
    }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, let subject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        isForwarding = true
        lock.unlock()
        subject.send(subscription: self)
    }

    /// Signals before upstream's subscription are ignored, as Combine's are
    /// (ShareTests.testShareCompletionBeforeSubscription).
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard isForwarding, let target = subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        target.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let target = lock.withLock { () -> Target? in
            guard isForwarding else { return nil }
            defer { subject = nil; upstream = nil; isForwarding = false }
            return subject
        }
        target?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.withLock { upstream }?.request(demand)
    }

    @inlinable
    func cancel() {
        // The subject leaves the lock with us: dropping the last reference to it runs its deinit,
        // which cancels this relay again, and that must not find the lock taken. (No tuple, and the
        // subject as `AnyObject?`: this runs unspecialised, from a subscription's existential, where
        // a tuple's or an `Optional<Target>`'s type would be looked up.)
        lock.lock()
        let current = upstream
        let target: AnyObject? = subject
        subject = nil
        upstream = nil
        isForwarding = false
        lock.unlock()
        withExtendedLifetime(target) { current?.cancel() }
    }
}
