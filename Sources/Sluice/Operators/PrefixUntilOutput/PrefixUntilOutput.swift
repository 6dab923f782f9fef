// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Republishes elements until another publisher emits an element; then finishes.
    ///
    /// The other publisher's failure type does not matter: if it completes without emitting,
    /// the stream simply goes on until upstream ends.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// As in Combine, the other publisher is subscribed (and asked for one element) first, then
    /// upstream; downstream receives the subscription when upstream's arrives. When the other
    /// publisher emits, upstream is cancelled and the stream finishes.
    @frozen
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements from `upstream` until `other` emits an element.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Inner = PrefixUntilOutputSubscription<S, Other.Failure>
            let subscription = Inner(downstream: subscriber)
            other.subscribe(TriggerSubscriber<Other.Output, Inner>(listener: subscription))
            upstream.subscribe(subscription)
        }
    }
}

/// Passes upstream's values through until the trigger fires.
///
/// Its state is a `PrefixUntilOutputState` under `lock`, never held while calling out; whether
/// upstream is active is published in `isActive` when the machine changes it, so that a value
/// costs one atomic load and no lock.
///
/// As in Combine, downstream gets this subscription when upstream's arrives, and hears nothing
/// of a stream that ends before: a completion from upstream then goes unheard, and the trigger
/// firing delivers `.finished` alone.
@usableFromInline
final class PrefixUntilOutputSubscription<Downstream: Subscriber, TriggerFailure: Error>:
    Subscriber, Subscription, TriggerListener
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = PrefixUntilOutputState()
    /// `state.published`, published under the lock.
    @usableFromInline let isActive = Atomic<Bool>(false)

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: PrefixUntilOutputSubscription.self).downstream.release() }
    }

    /// Runs an event under the lock, and publishes whether upstream is active.
    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout PrefixUntilOutputState) -> Result) -> Result {
        lock.withLock { state.run(body, publishingTo: isActive) }
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        guard withState({ $0.upstreamSubscribed(subscription) }) else { return subscription.cancel() }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard isActive.load(ordering: .acquiring) else { return .none }
        return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard let (cancelling, wasSubscribed) = withState({ $0.end() }) else { return }
        // Combine cancels a trigger that is still waiting before downstream hears the completion.
        cancelling.trigger?.cancel()
        guard wasSubscribed else { return lifetime.end(self) }
        finish(completion)
    }

    // MARK: Trigger

    @usableFromInline
    func triggerSubscribed(_ subscription: any Subscription) {
        guard withState({ $0.triggerSubscribed(subscription) }) else { return subscription.cancel() }
        subscription.request(.max(1))
    }

    @usableFromInline
    func triggerFired() {
        guard let end = withState({ $0.triggerFired() }) else { return }
        end.cancel()
        finish(.finished)
    }

    @usableFromInline
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        withState { $0.triggerCompleted() }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        withState { $0.requested() }?.request(demand)
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    @inlinable
    func cancel() {
        withState { $0.end() }?.cancelling.cancel()
        lifetime.end(self)
    }

    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }
}
