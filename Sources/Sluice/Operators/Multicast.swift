// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Shares this publisher's output through a subject made by `createSubject`.
    ///
    /// The subject is made once, when the multicast is first subscribed to or connected. Nothing
    /// flows until `connect()` attaches the subject to this publisher; a subscriber that arrives
    /// later sees only what the subject sends from then on.
    @inlinable
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher's output through `subject`; see `multicast(_:)`.
    @inlinable
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

        /// Guards the one-time creation only; re-entrant, because `createSubject` is user code that
        /// runs under it (so two threads cannot both create a subject).
        @usableFromInline let creation = ReentrantLock()
        /// Written once under `creation`; after that only read. `made` publishes it to readers
        /// that skip the lock.
        @exclusivity(unchecked)
        @usableFromInline var subject: SubjectType?
        @usableFromInline let made = Atomic<Bool>(false)

        /// Creates a multicast publisher that applies a closure to create a subject that delivers elements to subscribers.
        @inlinable
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, made on first use.
        @inlinable
        var sharedSubject: SubjectType {
            if made.load(ordering: .acquiring) { return subject.unsafelyUnwrapped }
            return makeSubject()
        }

        @usableFromInline
        func makeSubject() -> SubjectType {
            creation.lock()
            defer { creation.unlock() }
            if let subject { return subject }
            let created = createSubject()
            subject = created
            made.store(true, ordering: .releasing)
            return created
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            sharedSubject.subscribe(MulticastInner(downstream: Releasable(subscriber)))
        }

        @inlinable
        public func connect() -> any Cancellable {
            upstream.subscribe(sharedSubject)
        }
    }
}

/// Stands between the subject and one downstream subscriber, which sees a subscription named
/// "Multicast". The subject ignores demand returned from `receive(_:)`, so what downstream
/// returns is asked of the subject's subscription instead.
///
/// The value path reads one atomic flag; the lock guards only the subject's subscription, which
/// is taken to request, to cancel, and let go at the end. `Held` is its `Releasable<Downstream>`
/// (see `ReleasableSlot`).
@usableFromInline
final class MulticastInner<Held: ReleasableSlot>: Subscriber, Subscription, Introspected where Held.Value: Subscriber {
    @usableFromInline typealias Downstream = Held.Value
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Held
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var subscription: (any Subscription)?
    /// `awaiting` the subject's subscription → `active` → `ended` (completed or cancelled).
    @usableFromInline let phase = Atomic<UpstreamStatus>(.awaiting)

    @inlinable
    init(downstream: Held) {
        self.downstream = downstream
        lifetime = Lifetime { unsafeDowncast($0, to: MulticastInner.self).downstream.release() }
    }

    @usableFromInline var description: String { "Multicast" }

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == .awaiting else {
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        phase.store(.active, ordering: .releasing)
        lock.unlock()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard phase.load(ordering: .acquiring) == .active else { return .none }
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        if more != .none { request(more) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard phase.compareExchange(expected: .active, desired: .ended, ordering: .acquiringAndReleasing).exchanged
        else { return }
        lock.lock()
        subscription = nil
        lock.unlock()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // Combine's multicast takes a zero request without trapping (MulticastTests).
        guard demand != .none else { return }
        lock.lock()
        let current = phase.load(ordering: .relaxed) == .active ? subscription : nil
        lock.unlock()
        current?.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        phase.store(.ended, ordering: .releasing)
        let current = subscription
        subscription = nil
        lock.unlock()
        current?.cancel()
        lifetime.end(self)
    }
}
