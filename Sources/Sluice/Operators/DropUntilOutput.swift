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

/// Where `drop(untilOutputFrom:)` is: values are dropped until the trigger fires, then pass, until
/// the stream is done.
@usableFromInline
enum DropUntilOutputPhase: UInt8, StateWord {
    case dropping
    case passing
    case done
}

/// Drops upstream's values until the trigger fires.
///
/// One lock over the links to both upstreams and the demand that waits for upstream; never held
/// while calling out. `phase` mirrors the part of the state a value needs, so that a value costs
/// one atomic load and no lock.
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
    @usableFromInline let phase = Atomic<DropUntilOutputPhase>(.dropping)
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var upstream: (any Subscription)?
    @exclusivity(unchecked)
    @usableFromInline var hasUpstream = false
    /// What downstream requested and upstream has not sent yet: a value that finds none traps,
    /// as in Combine (whose operator counts it too), dropped or not, and after the end too.
    @usableFromInline let demand = DemandCounter()
    /// Demand that arrived before upstream's subscription.
    @exclusivity(unchecked)
    @usableFromInline var pending = Subscribers.Demand.none
    /// Held until the trigger fires or completes; Combine then lets it go without a cancel.
    @exclusivity(unchecked)
    @usableFromInline var trigger: (any Subscription)?
    @exclusivity(unchecked)
    @usableFromInline var hasTrigger = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: DropUntilOutputSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "DropUntilOutput" }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard phase.load(ordering: .relaxed) != .done, !hasUpstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasUpstream = true
        upstream = subscription
        let first = pending
        pending = .none
        lock.unlock()
        if first > 0 { subscription.request(first) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        _require(
            demand.load() != 0,
            "API violation: DropUntilOutput received a value from upstream while downstream had no outstanding demand")
        guard phase.load(ordering: .acquiring) == .passing else {
            _ = demand.settle(emitted: 1, returned: .none)
            return .none
        }
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        _ = demand.settle(emitted: 1, returned: more)
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard phase.load(ordering: .relaxed) != .done else {
            lock.unlock()
            return
        }
        phase.store(.done, ordering: .releasing)
        let other = trigger
        upstream = nil
        trigger = nil
        lock.unlock()
        // Combine cancels a trigger that has not fired before downstream hears the completion.
        other?.cancel()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    // MARK: Trigger

    @usableFromInline
    func triggerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == .dropping, !hasTrigger else {
            lock.unlock()
            subscription.cancel()
            return
        }
        hasTrigger = true
        trigger = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    @usableFromInline
    func triggerFired() {
        lock.lock()
        defer { lock.unlock() }
        guard phase.load(ordering: .relaxed) == .dropping else { return }
        phase.store(.passing, ordering: .releasing)
        trigger = nil
    }

    @usableFromInline
    func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard phase.load(ordering: .relaxed) == .dropping else {
            lock.unlock()
            return
        }
        // The trigger can no longer fire: nothing would ever pass, so the stream ends here.
        phase.store(.done, ordering: .releasing)
        let current = upstream
        upstream = nil
        trigger = nil
        lock.unlock()
        current?.cancel()
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard phase.load(ordering: .relaxed) != .done else {
            lock.unlock()
            return
        }
        _ = self.demand.add(demand)
        guard hasUpstream else {
            pending += demand
            lock.unlock()
            return
        }
        let current = upstream
        lock.unlock()
        current?.request(demand)
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    @inlinable
    func cancel() {
        lock.lock()
        phase.store(.done, ordering: .releasing)
        let current = upstream
        let other = trigger
        upstream = nil
        trigger = nil
        lock.unlock()
        current?.cancel()
        other?.cancel()
        lifetime.end(self)
    }
}
