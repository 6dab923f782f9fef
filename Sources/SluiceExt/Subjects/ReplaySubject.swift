// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

/// A subject that replays the last values it was sent, and its completion, to every new
/// subscriber, then passes on what it is sent next.
///
/// - A new subscriber receives, as its demand allows, the last `bufferSize` values sent before it
///   subscribed, then every value sent after, then the completion if one was sent. A subscriber that
///   comes after the completion receives the last values and the completion.
/// - Each subscriber has its own backlog: a value it has no demand for waits there, in order, until
///   it asks (nothing is dropped, unlike `PassthroughSubject`). The completion comes after the
///   backlog, demand or not.
/// - Subscribers are served in the order they subscribed. A value sent while another thread
///   subscribes is either replayed to the new subscriber or delivered to it live: never both, never
///   neither.
/// - A subscriber may send into the subject from inside `receive(_:)`: the value joins its backlog
///   and follows the one in hand, so no subscriber is entered twice at once.
/// - An upstream subscription handed over by `send(subscription:)` is asked for `.unlimited` at
///   once; it is let go of at the completion, and cancelled when the subject goes away.
public final class ReplaySubject<Output, Failure: Error>: Subject {
    @usableFromInline
    struct State {
        @usableFromInline var replay = Backlog<Output>()
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        @usableFromInline var conduits: ContiguousArray<BufferedSubscription<Output, Failure>> = []
        @usableFromInline var upstreams: [any Subscription] = []

        @inlinable init() {}
    }

    @usableFromInline let bufferSize: Int
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state = State()

    /// Creates a subject that replays its last `bufferSize` values to each new subscriber.
    ///
    /// `bufferSize` must not be negative.
    @inlinable
    public init(bufferSize: Int) {
        require(bufferSize >= 0, "ReplaySubject(bufferSize:) requires a non-negative size (got \(bufferSize))")
        self.bufferSize = bufferSize
    }

    deinit {
        for upstream in lock.withLock({ state.upstreams }) { upstream.cancel() }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = lock.withLock {
            let conduit = BufferedConduit(
                "ReplaySubject", downstream: subscriber, backlog: state.replay, completion: state.completion)
            if state.completion == nil { state.conduits.append(conduit) }
            return conduit
        }
        conduit.whenEnded { [weak self] in self?.remove($0) }
        subscriber.receive(subscription: conduit)
        conduit.handedOver()
    }

    @inlinable
    public func send(_ value: Output) {
        // Offered to every subscriber under the subject's lock, so that concurrent sends reach every
        // subscriber in one order; a subscriber with demand and nothing waiting gets the value
        // directly, outside the lock (`claimed` says which).
        lock.lock()
        guard state.completion == nil else { return lock.unlock() }
        state.replay.append(value, keepingAtMost: bufferSize)
        let receivers = state.conduits
        // `receivers` keeps the conduits alive: each is used without a retain of its own.
        receivers.withUnsafeBufferPointer { receivers in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: receivers.count) { claimed in
                for index in receivers.indices {
                    claimed[index] = Unmanaged.passUnretained(receivers[index])._withUnsafeGuaranteedRef {
                        $0.claim(value)
                    }
                }
                lock.unlock()
                for index in receivers.indices where claimed[index] {
                    Unmanaged.passUnretained(receivers[index])._withUnsafeGuaranteedRef { $0.deliver(claimed: value) }
                }
            }
        }
    }

    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        let (receivers, released) = lock.withLock {
            () -> (ContiguousArray<BufferedSubscription<Output, Failure>>, [any Subscription]) in
            guard state.completion == nil else { return ([], []) }
            state.completion = completion
            for conduit in state.conduits { conduit.enqueue(completion) }
            defer {
                state.conduits = []
                state.upstreams = []
            }
            return (state.conduits, state.upstreams)
        }
        for conduit in receivers { conduit.deliver() }
        withExtendedLifetime(released) {}
    }

    @inlinable
    public func send(subscription: any Subscription) {
        let ask = lock.withLock {
            guard state.completion == nil else { return false }
            state.upstreams.append(subscription)
            return true
        }
        if ask { subscription.request(.unlimited) }
    }

    /// Forgets a subscriber whose stream has ended.
    @usableFromInline
    func remove(_ conduit: BufferedSubscription<Output, Failure>) {
        lock.withLock { state.conduits.removeAll { $0 === conduit } }
    }
}
