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
/// One lock over the links to both upstreams; never held while calling out. `phase` is atomic, so
/// that a value costs one atomic load and no lock.
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
    /// `awaiting` → `active` → `ended`, or `awaiting` → `ended`; changed under `lock`.
    @usableFromInline let phase = Atomic<UpstreamStatus>(.awaiting)
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var upstream: (any Subscription)?
    /// Held until the trigger fires or completes; Combine then lets it go without a cancel.
    @exclusivity(unchecked)
    @usableFromInline var trigger: (any Subscription)?
    @exclusivity(unchecked)
    @usableFromInline var hasTrigger = false
    /// The trigger completed: an element it sends after that is ignored, as Combine ignores it.
    @exclusivity(unchecked)
    @usableFromInline var triggerEnded = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: PrefixUntilOutputSubscription.self).downstream.release() }
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == .awaiting else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase.store(.active, ordering: .releasing)
        upstream = subscription
        lock.unlock()
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard phase.load(ordering: .acquiring) == .active else { return .none }
        return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // Combine cancels a trigger that is still waiting before downstream hears the completion.
        guard let (_, other, wasSubscribed) = end() else { return }
        other?.cancel()
        guard wasSubscribed else { return lifetime.end(self) }
        finish(completion)
    }

    // MARK: Trigger

    @usableFromInline
    func triggerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard phase.load(ordering: .relaxed) != .ended, !hasTrigger else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasTrigger = true
        trigger = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    /// The trigger fired: upstream is cancelled and the stream finishes. The trigger itself is let
    /// go without a cancel, as in Combine: it was asked for one element and sent it.
    @usableFromInline
    func triggerFired() {
        // Combine ignores an element from a trigger that has not subscribed yet or has completed.
        guard lock.withLock({ hasTrigger && !triggerEnded }), let (current, _, _) = end() else { return }
        current?.cancel()
        finish(.finished)
    }

    /// Without an element the trigger will never fire: the stream goes on until upstream ends.
    @usableFromInline
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        lock.withLock {
            trigger = nil
            triggerEnded = true
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let current = phase.load(ordering: .relaxed) == .active ? upstream : nil
        lock.unlock()
        current?.request(demand)
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    @inlinable
    func cancel() {
        guard let (current, other, _) = end() else { return lifetime.end(self) }
        current?.cancel()
        other?.cancel()
        lifetime.end(self)
    }

    /// Stops the stream and hands back both links (and whether upstream had subscribed) to the
    /// one caller that stopped it.
    @usableFromInline
    func end() -> (upstream: (any Subscription)?, trigger: (any Subscription)?, wasSubscribed: Bool)? {
        lock.lock()
        defer { lock.unlock() }
        let current = phase.load(ordering: .relaxed)
        guard current != .ended else { return nil }
        phase.store(.ended, ordering: .releasing)
        defer {
            upstream = nil
            trigger = nil
        }
        return (upstream, trigger, current == .active)
    }

    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }
}
