// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Replaces any error from the upstream publisher with the provided element, then finishes.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    ///
    /// On an upstream failure it sends `output` and `.finished`, at once if downstream has demand
    /// left, otherwise at downstream's next request. Values and `.finished` pass through.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an upstream failure with `output`.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceErrorSubscription<Upstream, S>(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

/// Sits between upstream and downstream like a one-to-one operator, but counts downstream's
/// outstanding demand: the replacement value may only be sent while some is left, and is held
/// until there is when the failure arrives too early.
///
/// Lifetimes: downstream and the replacement value live in the state until the stream ends; the
/// call that ends it takes them out under the lock and drops them after.
private final class ReplaceErrorSubscription<Upstream: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, Introspected
where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let output: Upstream.Output
    }

    private enum State {
        case awaitingSubscription(Live)
        case subscribed(Live, upstream: any Subscription)
        /// Upstream failed while downstream had no demand: the replacement waits for a request.
        case awaitingDemand(Live)
        case terminated
        /// Cancelled before upstream's subscription came: as Combine's, that subscription is left alone.
        case abandoned
    }

    private let lock = Lock()
    private var state: State
    /// Set by `cancel()`: the completion does not follow a last value that a cancel came after.
    private var cancelled = false
    /// What downstream has asked for and not yet received.
    private var demand = Subscribers.Demand.none

    init(output: Upstream.Output, downstream: Downstream) {
        state = .awaitingSubscription(Live(downstream: downstream, output: output))
    }

    var description: String { "ReplaceError" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let live) = state else {
            let abandoned = if case .abandoned = state { true } else { false }
            lock.unlock()
            if !abandoned { subscription.cancel() }
            return
        }
        state = .subscribed(live, upstream: subscription)
        lock.unlock()
        live.downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let live, _) = state else {
            lock.unlock()
            return .none
        }
        // Combine traps here too: counting demand is this operator's job, so an upstream that
        // overruns it is caught rather than silently passed on.
        require(
            demand > 0,
            "API violation: ReplaceError received a value from upstream while downstream had no outstanding demand")
        demand -= 1
        lock.unlock()
        let more = live.downstream.receive(input)
        lock.lock()
        demand += more
        lock.unlock()
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .subscribed(let live, _) = previous else {
            lock.unlock()
            return
        }
        if case .failure = completion, demand == .none {
            state = .awaitingDemand(live)
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        let replacing = if case .failure = completion { true } else { false }
        live.downstream.receiveLast(replacing ? live.output : nil, then: .finished) { lock.withLock { cancelled } }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        self.demand += demand
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
