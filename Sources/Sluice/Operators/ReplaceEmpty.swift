// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If upstream finishes without producing any elements, this publisher emits `output` (once
    /// downstream has asked for something) and then finishes. A failure is passed on unchanged.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// Demand, as in Combine: it asks upstream for `.unlimited` once downstream has the
    /// subscription, and also passes each downstream request on. Upstream values are forwarded as
    /// they come, with downstream's answer as the new demand, so a downstream that asked for less
    /// than everything can receive more than it asked for. Only the replacement element waits
    /// for downstream demand.
    @frozen
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output` in place of an empty `upstream`.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceEmptySubscription(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

@usableFromInline
final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let output: Input
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    /// Only upstream's signals touch it, serially.
    @exclusivity(unchecked) @usableFromInline var receivedValue = false
    /// Values are taken only while it is `active`: those before upstream's subscription are
    /// ignored, as Combine's are (ReplaceEmptyTests.testReplaceEmptyReceiveValueBeforeSubscription).
    @usableFromInline let slot = UpstreamSlot<Input>()

    @inlinable
    init(output: Input, downstream: Downstream) {
        self.output = output
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: ReplaceEmptySubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "ReplaceEmpty" }

    @inlinable
    func receive(subscription: any Subscription) {
        switch slot.attach(subscription) {
        case .attached: break
        // As Combine's (ReplaceEmptyTests.testReplaceEmptyCancelBeforeSubscription).
        case .late(afterCancel: true): return subscription.request(.unlimited)
        case .late(afterCancel: false): return subscription.cancel()
        }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        if slot.current == .active { subscription.request(.unlimited) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard slot.current == .active else { return .none }
        receivedValue = true
        return lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard slot.current == .active else { return }
        var replacement: Input?
        if case .finished = completion, !receivedValue { replacement = output }
        let ending = slot.finish(parking: replacement)
        guard ending.didFinish else { return }
        guard ending.deliversNow else { return }
        lifetime.call(self) { lifetime.deliverEnd(replacement, completion, to: &downstream) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let (parked, live) = slot.request()
        if let parked {
            lifetime.call(self) { lifetime.deliverEnd(parked, .finished, to: &downstream) }
        }
        live?.request(demand)
    }

    @inlinable
    func cancel() {
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }
}
