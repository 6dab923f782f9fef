// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// Values before the failure pass through. On failure, `handler` makes the replacement, which
    /// is subscribed to and asked for the demand downstream still has outstanding. The switch
    /// happens once: the replacement's completion, failure included, ends the stream.
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Handles errors from an upstream publisher by either replacing it with another publisher
    /// or throwing a new error, which fails the stream.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                "Catch",
                downstream: subscriber,
                recover: { .success(handler($0)) },
                mapReplacementCompletion: { $0 })
            upstream.subscribe(subscription.upstreamSide)
        }
    }

    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher or producing a new error.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A throwing closure that accepts the upstream failure as input and returns a publisher to replace the upstream publisher.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher or producing a new error.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                "TryCatch",
                downstream: subscriber,
                recover: { error in
                    do { return .success(try handler(error)) } catch { return .failure(error) }
                },
                mapReplacementCompletion: { completion in
                    switch completion {
                    case .finished: .finished
                    case .failure(let error): .failure(error)
                    }
                })
            upstream.subscribe(subscription.upstreamSide)
        }
    }
}

/// The subscription of `catch` and `tryCatch`. It reads from the original upstream until that
/// fails, then from the replacement publisher; downstream sees one subscription throughout.
///
/// Each source talks to its own side object (``CatchUpstreamSide``, ``CatchReplacementSide``), so an
/// event from a source that is no longer current (the old upstream after its failure, a
/// replacement after a cancel) is recognised and ignored. The operator keeps count of the
/// demand downstream has outstanding, because the replacement starts with exactly that.
///
/// Lifetimes: downstream and the closures are in `live` until the stream ends; the call that ends
/// it (a completion, a cancel) takes them out with the state (`end()`) and drops them after the
/// lock is released.
private final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
    Subscription, Introspected
where Upstream.Output == Downstream.Input, NewPublisher.Output == Downstream.Input {
    private enum State {
        case awaitingSubscription
        /// Reading from the original upstream.
        case upstream(any Subscription)
        /// Upstream failed; the replacement has been asked for (or subscribed to) and its
        /// subscription has not arrived yet.
        case awaitingReplacement
        /// Reading from the replacement.
        case replacement(any Subscription)
        case terminated
    }

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let recover: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
        let mapReplacementCompletion:
            (Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<Downstream.Failure>
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// Requested by downstream and not yet delivered, plus the demand it returned for each value.
    private var demand = Subscribers.Demand.none
    /// `nil` once the stream has ended.
    private var live: Live?
    let description: String

    init(
        _ name: String,
        downstream: Downstream,
        recover: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
        mapReplacementCompletion:
            @escaping (Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<Downstream.Failure>
    ) {
        description = name
        live = Live(downstream: downstream, recover: recover, mapReplacementCompletion: mapReplacementCompletion)
    }

    /// The subscriber to attach to the original upstream.
    var upstreamSide: CatchUpstreamSide { CatchUpstreamSide(owner: self) }

    /// Combine's children: the subscriber and the demand it has outstanding.
    var customMirror: Mirror {
        lock.withLock { Mirror(self, children: [("downstream", live?.downstream as Any), ("demand", demand)]) }
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        switch state {
        case .upstream(let source), .replacement(let source):
            self.demand += demand
            lock.unlock()
            source.request(demand)
        case .awaitingSubscription, .awaitingReplacement:
            // The replacement asks for it when its subscription arrives.
            self.demand += demand
            lock.unlock()
        case .terminated:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let (previous, ended) = end()
        lock.unlock()
        switch previous {
        case .upstream(let source), .replacement(let source): source.cancel()
        case .awaitingSubscription, .awaitingReplacement, .terminated: break
        }
        withExtendedLifetime(ended) {}
    }

    /// Moves to `.terminated` and hands over what the stream held (the state before, downstream
    /// and the closures), for the caller to use and drop after it releases the lock. Called with
    /// the lock held.
    private func end() -> (previous: State, live: Live?) {
        (exchange(&state, with: .terminated), live.take())
    }

    // MARK: Original upstream

    fileprivate func upstreamReceive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .upstream(subscription)
        let downstream = live?.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
    }

    fileprivate func upstreamReceive(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard case .upstream = state else {
            let early = if case .awaitingSubscription = state { true } else { false }
            lock.unlock()
            require(!early, "API violation: \(description) received a value before its subscription")
            return .none
        }
        lock.unlock()
        return deliver(input)
    }

    fileprivate func upstreamReceive(completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        switch state {
        case .upstream: break
        case .awaitingReplacement, .replacement:
            lock.unlock()
            trap("API violation: \(description)'s upstream sent a completion after its failure")
        case .awaitingSubscription, .terminated:
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            let (previous, ended) = end()
            lock.unlock()
            ended?.downstream.receive(completion: .finished)
            withExtendedLifetime(previous) {}
        case .failure(let error):
            // The failed upstream is done: nothing to cancel. Drop it (after the lock) and switch.
            let failed = state
            state = .awaitingReplacement
            let recover = live?.recover
            lock.unlock()
            withExtendedLifetime(failed) {}
            guard let recovery = recover?(error) else { return }
            // A cancel from inside the handler gets there first: no subscribe, no completion.
            lock.lock()
            guard case .awaitingReplacement = state else {
                lock.unlock()
                return
            }
            switch recovery {
            case .success(let replacement):
                lock.unlock()
                replacement.subscribe(CatchReplacementSide(owner: self))
            case .failure(let error):
                let (_, ended) = end()
                lock.unlock()
                ended?.downstream.receive(completion: .failure(error))
            }
        }
    }

    // MARK: Replacement

    fileprivate func replacementReceive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingReplacement = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .replacement(subscription)
        let outstanding = demand
        lock.unlock()
        if outstanding > 0 {
            subscription.request(outstanding)
        }
    }

    fileprivate func replacementReceive(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.lock()
        guard case .replacement = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return deliver(input)
    }

    fileprivate func replacementReceive(completion: Subscribers.Completion<NewPublisher.Failure>) {
        lock.lock()
        guard case .replacement = state else {
            lock.unlock()
            return
        }
        let (previous, ended) = end()
        lock.unlock()
        if let ended { ended.downstream.receive(completion: ended.mapReplacementCompletion(completion)) }
        withExtendedLifetime(previous) {}
    }

    // MARK: Shared

    /// Passes one value on and keeps the outstanding demand up to date.
    private func deliver(_ input: Downstream.Input) -> Subscribers.Demand {
        let (downstream, overrun) = lock.withLock { () -> (Downstream?, Bool) in
            guard demand > 0 else { return (nil, true) }
            demand -= 1
            return (live?.downstream, false)
        }
        // As Combine's: the operator counts demand, and a source that overruns it traps.
        require(
            !overrun, "API violation: \(description) received a value while downstream had no outstanding demand")
        guard let downstream else { return .none }
        let more = downstream.receive(input)
        lock.withLock { demand += more }
        return more
    }

    /// The subscriber the original upstream talks to.
    struct CatchUpstreamSide: Subscriber, Introspected {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let owner: CatchSubscription
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        var customMirror: Mirror { owner.customMirror }

        func receive(subscription: any Subscription) { owner.upstreamReceive(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { owner.upstreamReceive(input) }

        func receive(completion: Subscribers.Completion<Failure>) { owner.upstreamReceive(completion: completion) }
    }

    /// The subscriber the replacement publisher talks to.
    private struct CatchReplacementSide: Subscriber, Introspected {
        typealias Input = NewPublisher.Output
        typealias Failure = NewPublisher.Failure

        let owner: CatchSubscription
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        var customMirror: Mirror { owner.customMirror }

        func receive(subscription: any Subscription) { owner.replacementReceive(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { owner.replacementReceive(input) }

        func receive(completion: Subscribers.Completion<Failure>) { owner.replacementReceive(completion: completion) }
    }
}
