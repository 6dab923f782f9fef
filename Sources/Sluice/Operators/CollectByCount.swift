// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    ///
    /// When the upstream finishes, a last, shorter array is emitted if any element is left over.
    /// When it fails, the elements left over are dropped and the failure is passed on.
    @inlinable
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that buffers a maximum number of items.
    ///
    /// Demand is counted in arrays: a request for `n` arrays asks upstream for `n * count`
    /// elements, and the demand downstream returns for an array comes back multiplied the same way.
    @frozen
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that publishes the elements of `upstream` in arrays of `count`.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByCountSubscription(count: count, downstream: subscriber))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

/// Fills one array at a time; only upstream's signals touch it.
@usableFromInline
final class CollectByCountSubscription<Element, Downstream: Subscriber>: Subscriber, Subscription, Introspected
where Downstream.Input == [Element] {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let count: Int
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    /// Fewer than `count` elements between signals. Upstream sends serially; a cancel leaves it
    /// alone (it dies with the subscription).
    @exclusivity(unchecked) @usableFromInline var buffer: [Element] = []
    @usableFromInline let slot = UpstreamSlot<Never>()

    @inlinable
    init(count: Int, downstream: Downstream) {
        self.count = count
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: CollectByCountSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "CollectByCount" }

    @usableFromInline var customMirror: Mirror {
        let upstream = slot.activeUpstream().upstream
        return Mirror(
            self,
            children: [
                ("downstream", downstream.value as Any), ("upstreamSubscription", upstream as Any), ("buffer", buffer),
                ("count", count),
            ])
    }

    @inlinable
    func receive(subscription: any Subscription) {
        // As Combine's, a subscription after downstream cancelled is left alone
        // (CollectByCountTests.testCollectByCountCancelBeforeSubscription).
        guard slot.attachOrCancelLate(subscription) else { return }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Element) -> Subscribers.Demand {
        guard slot.current.isLive else { return .none }
        buffer.append(input)
        guard buffer.count >= count else { return .none }
        var full: [Element] = []
        full.reserveCapacity(count)
        swap(&full, &buffer)
        // Downstream answers in arrays; upstream counts elements.
        let more = lifetime.call(self) { downstream.with { $0.receive(full) } } ?? .none
        return more == .none || !slot.current.isLive ? .none : more * count
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        // As Combine's, a completion before upstream's subscription is passed on (alone).
        guard slot.current.isLive, slot.finish(parking: nil).didFinish || slot.end(abandoning: true).didEnd else {
            return
        }
        let rest = buffer
        buffer = []
        // The last, shorter array: upstream sent these against demand for an array not yet full.
        let last: [Input]? = if case .finished = completion, !rest.isEmpty { rest } else { nil }
        lifetime.call(self) { lifetime.deliverEnd(last, completion, to: &downstream) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        slot.activeUpstream().upstream?.request(demand * count)
    }

    @inlinable
    func cancel() {
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }
}
