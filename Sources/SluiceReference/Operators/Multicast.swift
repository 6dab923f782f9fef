// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Shares this publisher's output through a subject made by `createSubject`.
    ///
    /// The subject is made once, when the multicast is first subscribed to or connected. Nothing
    /// flows until `connect()` attaches the subject to this publisher; a subscriber that arrives
    /// later sees only what the subject sends from then on.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher's output through `subject`; see `multicast(_:)`.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: { subject })
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject; `connect()` attaches the subject to the upstream. Each
    /// `connect()` makes a new upstream subscription, so connecting twice delivers every value twice.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public final let upstream: Upstream
        /// A closure that returns a subject each time a subscriber attaches to the multicast publisher.
        public final let createSubject: () -> SubjectType

        /// Recursive and held while `createSubject` runs, so that the subject is made exactly once
        /// even when two threads subscribe at the same time. It is never held while calling
        /// upstream or downstream.
        private let lock = Lock(recursive: true)
        private var subject: SubjectType?

        /// Creates a multicast publisher that applies a closure to create a subject that delivers elements to subscribers.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        private var sharedSubject: SubjectType {
            lock.withLock {
                if let subject { return subject }
                let made = createSubject()
                subject = made
                return made
            }
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            sharedSubject.subscribe(MulticastInner(downstream: subscriber))
        }

        public func connect() -> any Cancellable {
            upstream.subscribe(sharedSubject)
        }
    }
}

/// Stands between the subject and one downstream subscriber: the subscriber sees a subscription
/// named "Multicast"; the demand it returns from `receive(_:)` is asked of the subject.
///
/// Lifetimes: downstream lives in the state until the stream ends; the call that ends it takes it
/// out under the lock and drops it after.
private final class MulticastInner<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, subject: any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state: State

    init(downstream: Downstream) { state = .awaitingSubscription(downstream) }

    var description: String { "Multicast" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(downstream, subject: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let downstream, _) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let more = downstream.receive(input)
        guard more > 0 else { return .none }
        // Asked of the subject, not returned to it: a subject ignores returned demand.
        lock.lock()
        guard case .subscribed(_, let subject) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.request(more)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .subscribed(let downstream, _) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        // Combine's multicast takes a zero request without trapping (MulticastTests).
        guard demand != .none else { return }
        lock.lock()
        guard case .subscribed(_, let subject) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        subject.request(demand)
    }

    func cancel() {
        let previous = lock.withLock { exchange(&state, with: .terminated) }
        if case .subscribed(_, let subject) = previous { subject.cancel() }
    }
}
