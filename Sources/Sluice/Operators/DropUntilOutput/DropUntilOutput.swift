// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second publisher.
    ///
    /// A completion of the second publisher before its first element ends the stream (a failure
    /// fails it); after its first element, the second publisher no longer matters.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element
    /// from a second publisher.
    ///
    /// As in Combine: downstream receives the subscription first, then the other publisher is
    /// subscribed and asked for one element, then upstream. Downstream's demand goes straight
    /// upstream, and an element dropped before the trigger is not replaced by a new request.
    @frozen
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from `upstream` until `other` emits an element.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = DropUntilOutputSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            other.subscribe(TriggerSubscriber<Other.Output, DropUntilOutputSubscription<S>>(listener: subscription))
            upstream.subscribe(subscription)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// Drops upstream's values until the trigger fires.
///
/// Its state is a `DropUntilOutputState` under `lock`, never held while calling out; whether values
/// pass is published in `isPassing` when the machine changes it, so that a value costs one atomic
/// load and no lock.
@usableFromInline
final class DropUntilOutputSubscription<Downstream: Subscriber>:
    Subscriber, Subscription, TriggerListener, Introspected
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias TriggerFailure = Downstream.Failure

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = DropUntilOutputState()
    /// `state.published`, published under the lock.
    @usableFromInline let isPassing = Atomic<Bool>(false)
    /// What downstream requested and upstream has not sent yet: a value that finds none traps,
    /// as in Combine (whose operator counts it too), dropped or not, and after the end too.
    @usableFromInline let demand = DemandCounter()

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: DropUntilOutputSubscription.self).downstream.release() }
    }

    /// Runs an event under the lock, and publishes whether values pass.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout DropUntilOutputState) -> Result) -> Result {
        lock.withLock { state.run(body, publishingTo: isPassing) }
    }

    /// Inside a `lifetime` call: ends the stream with `completion`, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }

    @usableFromInline var description: String { "DropUntilOutput" }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard let first = withState({ $0.upstreamSubscribed(subscription) }) else { return subscription.cancel() }
        if first > 0 { subscription.request(first) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        require(
            demand.load() != 0,
            "API violation: DropUntilOutput received a value from upstream while downstream had no outstanding demand")
        guard isPassing.load(ordering: .acquiring) else {
            _ = demand.settle(emitted: 1, returned: .none)
            return .none
        }
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        _ = demand.settle(emitted: 1, returned: more)
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard let end = withState({ $0.upstreamCompleted() }) else { return }
        end.cancel()
        lifetime.call(self) { complete(completion) }
    }

    // MARK: Trigger

    @usableFromInline
    func triggerSubscribed(_ subscription: any Subscription) {
        guard withState({ $0.triggerSubscribed(subscription) }) else { return subscription.cancel() }
        subscription.request(.max(1))
    }

    @usableFromInline
    func triggerFired() {
        withState { $0.triggerFired() }
    }

    @usableFromInline
    func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        guard let end = withState({ $0.triggerCompleted() }) else { return }
        end.cancel()
        lifetime.call(self) { complete(completion) }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let request = withState { state in
            let request = state.requested(demand)
            if case .ignore = request {} else { _ = self.demand.add(demand) }
            return request
        }
        if case .forward(let upstream) = request { upstream.request(demand) }
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    @inlinable
    func cancel() {
        withState { $0.cancelled() }.cancel()
        lifetime.end(self)
    }
}
