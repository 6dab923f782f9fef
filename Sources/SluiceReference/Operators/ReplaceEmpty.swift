// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If upstream finishes without producing any elements, this publisher emits `output` (once
    /// downstream has asked for something) and then finishes. A failure is passed on unchanged.
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
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes `output` in place of an empty `upstream`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceEmptySubscription(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

/// Passes values through and, if upstream finishes without one, sends `output` first.
///
/// Lifetimes: downstream and the replacement value live in the state until the stream ends; the
/// call that ends it takes them out under the lock and drops them after.
private final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let output: Input
    }

    private enum State {
        case awaitingSubscription(Live)
        case subscribed(Live, upstream: any Subscription)
        /// Upstream finished empty before downstream asked for anything.
        case awaitingDemand(Live)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is still
        /// asked for everything (and what it sends is dropped).
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    /// Set by `cancel()`: the completion does not follow a last value that a cancel came after.
    private var cancelled = false
    private var receivedValue = false
    private var downstreamHasAsked = false

    init(output: Input, downstream: Downstream) {
        state = .awaitingSubscription(Live(downstream: downstream, output: output))
    }

    var description: String { "ReplaceEmpty" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            if abandoned { state = .terminated }
            lock.unlock()
            if abandoned { subscription.request(.unlimited) } else { subscription.cancel() }
            return
        }
        state = .subscribed(live, upstream: subscription)
        lock.unlock()
        live.downstream.receive(subscription: self)
        // Not after a stream that ended meanwhile: nothing is asked of an upstream let go of.
        let subscribed = lock.withLock { if case .subscribed = state { true } else { false } }
        if subscribed { subscription.request(.unlimited) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let live, _) = state else {
            lock.unlock()
            return .none
        }
        receivedValue = true
        lock.unlock()
        return live.downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .subscribed(let live, _) = previous else {
            lock.unlock()
            return
        }
        if case .finished = completion, !receivedValue, !downstreamHasAsked {
            state = .awaitingDemand(live)
            lock.unlock()
            return
        }
        state = .terminated
        let replace = !receivedValue
        lock.unlock()
        let replacing = if case .finished = completion { replace } else { false }
        live.downstream.receiveLast(replacing ? live.output : nil, then: completion) { lock.withLock { cancelled } }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        downstreamHasAsked = true
        switch state {
        case .subscribed(_, let upstream):
            lock.unlock()
            upstream.request(demand)
        case .awaitingDemand(let live):
            state = .terminated
            lock.unlock()
            live.downstream.receiveLast(live.output, then: .finished) { lock.withLock { cancelled } }
        case .awaitingSubscription, .terminated, .abandoned:
            lock.unlock()
        }
    }

    func cancel() {
        let previous = lock.withLock {
            cancelled = true
            if case .awaitingSubscription = state {
                return exchange(&state, with: .abandoned)
            } else {
                return exchange(&state, with: .terminated)
            }
        }
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
    }
}
