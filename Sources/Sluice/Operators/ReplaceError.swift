// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension Publisher {
    /// Replaces any error from the upstream publisher with the provided element, then finishes.
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    // Not a stage: the replacement may only be sent against demand, so the operator counts downstream's
    // demand itself (and is never fused; a fused upstream ends at it).
    /// A publisher that replaces any errors in the stream with a provided element.
    ///
    /// On an upstream failure it sends `output` and `.finished`, at once if downstream has demand
    /// left, otherwise at downstream's next request. Values and `.finished` pass through.
    @frozen
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an upstream failure with `output`.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceErrorSubscription<Upstream, S>(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

/// Passes values through like a stage, but keeps count of downstream's outstanding demand so that
/// an upstream failure can be answered with the replacement only when downstream can take it.
///
/// Values come serially from upstream and touch only the atomic demand word and status (no lock
/// per value). `request`, `cancel` and the completion meet under the lock: a failure that finds no
/// demand parks the stream in `finishing`, and the request that finds it there delivers.
@usableFromInline
final class ReplaceErrorSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
    Subscription, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
    @usableFromInline let slot = UpstreamSlot<Never>()
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    /// Upstream failed while downstream had no demand: the replacement waits for a request.

    @usableFromInline let output: Upstream.Output
    /// Used only inside calls through `lifetime`.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    /// What downstream has asked for and not yet received.
    @usableFromInline let demand = DemandCounter()

    @inlinable
    init(output: Upstream.Output, downstream: Downstream) {
        self.output = output
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: ReplaceErrorSubscription.self).downstream.release() }
    }

    @usableFromInline var description: String { "ReplaceError" }

    @inlinable
    func receive(subscription: any Subscription) {
        guard slot.attachOrCancelLate(subscription) else { return }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard slot.status.load(ordering: .acquiring) == .active else { return .none }
        // Combine traps here too: this operator counts demand, so an upstream that overruns it
        // is caught rather than passed on.
        require(
            demand.load() != 0,
            "API violation: ReplaceError received a value from upstream while downstream had no outstanding demand")
        let more = lifetime.call(self) { downstream.with { $0.receive(input) } } ?? .none
        _ = demand.settle(emitted: 1, returned: more)
        return more
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        slot.lock.lock()
        guard slot.status.load(ordering: .relaxed) == .active else {
            slot.lock.unlock()
            return
        }
        slot.upstream = nil
        if case .failure = completion, demand.load() == 0 {
            slot.status.store(.finishing, ordering: .releasing)
            slot.lock.unlock()
            return
        }
        slot.status.store(.ended, ordering: .releasing)
        slot.lock.unlock()
        finish(replacing: { if case .failure = completion { true } else { false } }())
    }

    /// Ends the stream downstream, with the replacement value first if `replacing`.
    @inlinable
    func finish(replacing: Bool) {
        lifetime.call(self) { lifetime.deliverEnd(replacing ? output : nil, .finished, to: &downstream) }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        slot.lock.lock()
        _ = self.demand.add(demand)
        switch slot.status.load(ordering: .relaxed) {
        case .active:
            let upstream = slot.upstream
            slot.lock.unlock()
            upstream?.request(demand)
        case .finishing:
            slot.status.store(.ended, ordering: .releasing)
            slot.lock.unlock()
            finish(replacing: true)
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
