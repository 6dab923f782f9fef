// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    // On a fusable chain the whole stream runs here, inline, as one loop (see
    // `Sluice.docc/RuntimeContract.md`): it has ended before this returns, so there is nothing left to
    // cancel. Otherwise the returned `AnyCancellable` holds the subscription, not the subscriber: the
    // subscriber, its closures and what they captured belong to upstream alone, and go when upstream lets go
    // of them at the end of the stream (see `SinkSubscriber`).
    /// Attaches a subscriber with closure-based behaviour; it requests an unlimited number of values.
    @inlinable @inline(__always)
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        if Self._isFusable && _Runtime.mayFuse {
            if _forEach(
                {
                    receiveValue($0); return true
                }, receiveCompletion)
            {
                return AnyCancellable()
            }
            return starvedSink(keeping: self, receiveValue, receiveCompletion)
        }
        let token = SinkToken()
        subscribe(SinkSubscriber(token: token, receiveCompletion: receiveCompletion, receiveValue: receiveValue))
        return AnyCancellable(object: token)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    @inlinable @inline(__always)
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

/// A starved chain never sends anything: as unfused, the closures (and the chain's) stay until
/// the token is cancelled or released.
@inline(never) @usableFromInline
func starvedSink<P: Publisher>(
    keeping publisher: P, _ receiveValue: @escaping (P.Output) -> Void,
    _ receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void
) -> AnyCancellable {
    AnyCancellable { withExtendedLifetime((publisher, receiveValue, receiveCompletion)) {} }
}

/// What `sink(...)`'s `AnyCancellable` holds: the upstream slot (the subscription, once it has
/// come, and where the stream is). It holds nothing of the subscriber, so the caller holding the
/// token does not keep the closures alive.
@usableFromInline
final class SinkToken: Cancellable, @unchecked Sendable {
    @usableFromInline let slot = UpstreamSlot<Never>()

    @inlinable init() {}

    @usableFromInline
    func cancel() {
        // As Combine's sink, it ignores a cancel before its subscription (PrintTests.testSynchronization).
        guard slot.current != .awaiting else { return }
        slot.end().upstream?.cancel()
    }
}

/// The subscriber `sink(...)` attaches: Combine's `Sink`, owned by upstream alone.
///
/// Its closures are `let`s: upstream lets go of this subscriber when the stream ends (every Sluice
/// subscription does, once no delivery runs), and that is what releases them. So a value costs one
/// atomic load of the token's status, which keeps out a value that a misbehaving upstream sends after
/// the cancel.
@usableFromInline
final class SinkSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    @usableFromInline let token: SinkToken
    @usableFromInline let receiveValue: (Input) -> Void
    @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(
        token: SinkToken,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Input) -> Void
    ) {
        self.token = token
        self.receiveCompletion = receiveCompletion
        self.receiveValue = receiveValue
    }

    @usableFromInline var description: String { "Sink" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard token.slot.attachOrCancelLate(subscription) else { return }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ value: Input) -> Subscribers.Demand {
        if token.slot.current.isLive { receiveValue(value) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        if token.slot.end().didEnd { receiveCompletion(completion) }
    }
}

extension Subscribers {
    // Its `EndGate` leaves letting go of the closures to a value still being delivered on another thread.
    // `sink(...)` does not use this class: see `SinkSubscriber`.
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// As Combine's, it delivers what arrives until it has completed or been cancelled (also before a
    /// subscription arrives); a cancel before any subscription does nothing. It lets go of its closures and
    /// of the subscription when the stream completes and when it is cancelled, so that whatever the closures
    /// capture is freed then, even while the caller still holds the sink (or its `AnyCancellable`).
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        /// The closures, until the stream ends.
        @usableFromInline struct Closures {
            @usableFromInline var receiveValue: (Input) -> Void
            @usableFromInline var receiveCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(
                receiveValue: @escaping (Input) -> Void,
                receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
            ) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        /// The closure to execute on receipt of a value; one that does nothing once the stream has ended.
        public var receiveValue: (Input) -> Void { closures.value?.receiveValue ?? { _ in } }
        /// The closure to execute on completion; one that does nothing once the stream has ended.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            closures.value?.receiveCompletion ?? { _ in }
        }

        /// `awaiting` → `active` → `ended` (or `awaiting` → `ended` by a completion); changed under
        /// `lock`, read without it.
        @usableFromInline let status = Atomic<UpstreamStatus>(.awaiting)
        @usableFromInline let lock = Lock()
        @exclusivity(unchecked)
        @usableFromInline var subscription: (any Subscription)?
        /// Used only inside calls through `gate`.
        @exclusivity(unchecked)
        @usableFromInline var closures: Releasable<Closures>
        /// Ends with `status`'s move to `ended`.
        @usableFromInline let gate = EndGate()

        /// Initializes a sink with the provided closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            closures = Releasable(Closures(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        public var description: String { "Sink" }

        public var customMirror: Mirror { Mirror(self, children: [:]) }

        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard status.load(ordering: .relaxed) == .awaiting else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status.store(.active, ordering: .releasing)
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Tells the subscriber that the publisher has produced an element.
        ///
        /// As Combine's sink, it takes a value even before its subscription: only the end of the stream stops values.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            if gate.enter() { closures.with { $0.receiveValue(value) } }
            if gate.leave() { closures.release() }
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            if gate.enter(), end() {
                _ = gate.end()
                closures.with { $0.receiveCompletion(completion) }
            }
            if gate.leave() { closures.release() }
        }

        public func cancel() {
            lock.lock()
            guard status.load(ordering: .relaxed) == .active else {
                // Combine's sink ignores a cancel before its subscription.
                lock.unlock()
                return
            }
            status.store(.ended, ordering: .releasing)
            let current = subscription
            subscription = nil
            lock.unlock()
            current?.cancel()
            if gate.end(), gate.claimRelease() { closures.release() }
        }

        /// Moves to `ended` from either live state; true for the one caller that did it.
        func end() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard status.load(ordering: .relaxed) != .ended else { return false }
            status.store(.ended, ordering: .releasing)
            subscription = nil
            return true
        }
    }
}
