// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// `count` must not be negative; a negative count traps when the publisher is subscribed.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// As in Combine, it asks upstream for the elements it will drop up front, whatever downstream's demand:
    /// the first request upstream is the demand downstream has made so far plus `count`, and a dropped
    /// element asks for nothing more. So a synchronous upstream that has nothing beyond the dropped elements
    /// completes without any demand from downstream.
    @frozen
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits `count` elements before republishing later elements.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Never fused: Combine hands the subscription downstream first and then asks upstream for
        /// `count` at once, demand or not, so the dropped values are pulled right after downstream
        /// has its subscription. The upstream chain below still runs fused.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = DropSubscription(count: checkedCount, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }

        @inlinable
        var checkedCount: Int {
            require(count >= 0, "dropFirst(_:) requires a non-negative count (got \(count))")
            return count
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

@usableFromInline
final class DropSubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let count: Int
    /// Values still to drop; only `receive(_:)` touches it.
    @exclusivity(unchecked)
    @usableFromInline var remaining: Int
    /// Downstream's requests before upstream's subscription came; guarded by `lock`.
    @exclusivity(unchecked)
    @usableFromInline var pending = Subscribers.Demand.none

    @inlinable
    init(count: Int, downstream: Downstream) {
        self.count = count
        remaining = count
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: DropSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "Drop" }

    @inlinable
    func receive(subscription: any Subscription) {
        // Upstream's first request is the demand that waited for it, plus the values to drop.
        var first = Subscribers.Demand.none
        let attached = slot.attachOrCancelLate(subscription) {
            first = pending + count
            pending = .none
        }
        guard attached else { return }
        if first > 0 { subscription.request(first) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Downstream holds this subscription from the start, so, as Combine's, even a value that
        // comes before upstream's subscription is dropped or passed on; only the end stops values.
        guard slot.current.isLive else { return .none }
        guard remaining == 0 else {
            // Asked for on top of downstream's demand: it leaves nothing to replace.
            remaining -= 1
            return .none
        }
        return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // Downstream already has its subscription, so even a completion that comes before
        // upstream's subscription can be delivered.
        guard slot.end().didEnd else { return }
        lifetime.call(self) {
            if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        slot.lock.lock()
        switch slot.status.load(ordering: .relaxed) {
        case .awaiting:
            pending += demand
            slot.lock.unlock()
        case .active:
            let current = slot.upstream
            slot.lock.unlock()
            current?.request(demand)
        default:
            slot.lock.unlock()
        }
    }

    @inlinable
    func cancel() {
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }
}
