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
/// The subject and the upstream subscription live in the state and only there: a cancel or the
/// completion lets go of both, so a relay that is kept (as an `AnyCancellable`) does not keep the
/// subject.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Cancellable, Introspectable {
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state: State

    init(_ subject: Downstream) { state = .awaitingSubscription(subject) }

    var description: String { "Subject" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let subject) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subject, subscription)
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let subject, _) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps the subject and the upstream subscription until the lock is released.
        let previous = state
        guard case .subscribed(let subject, _) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        subject.send(completion: completion)
    }

    func cancel() {
        // `previous` keeps the subject alive until the lock is released: if this was its last
        // reference, its deinit cancels this relay again.
        let previous = lock.withLock { exchange(&state, with: .terminated) }
        if case .subscribed(_, let upstream) = previous { upstream.cancel() }
    }
}

extension SubjectSubscriber: Subscription {
    /// The subject asks for values through this; demand goes straight upstream.
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard case .subscribed(_, let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }
}
