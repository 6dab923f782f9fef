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
    public func send() { send(()) }
}

extension Publisher {
    /// Attaches the subject to this publisher; the subject republishes everything it receives.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// The subscriber behind `subscribe(_:)` with a subject and `AnySubscriber(subject)`: hands
/// itself to the subject as the upstream subscription and forwards values and the completion
/// until cancelled.
///
/// As Combine's, it does not keep the subject: upstream holds this relay, and a subject nobody
/// else holds is freed (its deinit cancels the relay), connected or not
/// (MulticastTests.testDeallocateConnectedMulticastBeforeCancelling).
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Cancellable, Introspected {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private weak var subject: Downstream?

    init(_ subject: Downstream) { self.subject = subject }

    var description: String { "Subject" }

    /// Combine's child: the subject it sends into.
    var customMirror: Mirror { Mirror(self, children: [("subject", lock.withLock { subject } as Any)]) }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state, let subject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state, let subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps the upstream subscription until the lock is released.
        let previous = state
        guard case .subscribed = previous, let subject else {
            lock.unlock()
            return
        }
        state = .terminated
        self.subject = nil
        lock.unlock()
        subject.send(completion: completion)
    }

    func cancel() {
        // `target` keeps the subject alive until the lock is released: if this was its last
        // reference, its deinit cancels this relay again.
        let (previous, target) = lock.withLock {
            defer { subject = nil }
            return (exchange(&state, with: .terminated), subject)
        }
        if case .subscribed(let upstream) = previous { upstream.cancel() }
        withExtendedLifetime(target) {}
    }
}

extension SubjectSubscriber: Subscription {
    /// The subject asks for values through this; demand goes straight upstream.
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }
}
