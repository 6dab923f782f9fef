// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// Values before the failure pass through. On failure, `handler` makes the replacement, which
    /// is subscribed to and asked for the demand downstream still has outstanding. The switch
    /// happens once: the replacement's completion, failure included, ends the stream.
    @inlinable
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Handles errors from an upstream publisher by either replacing it with another publisher or
    /// throwing a new error, which fails the stream.
    @inlinable
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher.
    @frozen
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that accepts the upstream failure as input and returns a publisher to replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                name: "Catch", downstream: subscriber,
                recover: { .success(handler($0)) },
                mapCompletion: { $0 })
            upstream.subscribe(CatchUpstreamSide(owner: subscription))
        }
    }

    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher or producing a new error.
    @frozen
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A throwing closure that accepts the upstream failure as input and returns a publisher to replace the upstream publisher.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher with another publisher or producing a new error.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                name: "TryCatch", downstream: subscriber,
                recover: { error in Result { try handler(error) } },
                mapCompletion: { completion in
                    switch completion {
                    case .finished: .finished
                    case .failure(let error): .failure(error)
                    }
                })
            upstream.subscribe(CatchUpstreamSide(owner: subscription))
        }
    }
}

/// The subscription of `catch` and `tryCatch`: reads from the upstream until it fails, then from
/// the replacement; downstream sees this one subscription throughout.
///
/// One lock over one `CatchState`, never held while calling out. Each source talks through its own
/// side (`CatchUpstreamSide`, `CatchReplacementSide`), so an event from a source that is no longer
/// current (the old upstream after its failure, a replacement after a cancel) is recognised and
/// ignored.
@usableFromInline
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    Introspected
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    /// What the live stream holds: used only inside calls through `lifetime`.
    @usableFromInline
    struct Live {
        @usableFromInline var downstream: Downstream
        /// The handler, as a value or the error that ends the stream (`tryCatch`'s throw).
        @usableFromInline let recover: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
        @usableFromInline let mapCompletion:
            (Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<Downstream.Failure>

        @inlinable
        init(
            downstream: Downstream, recover: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
            mapCompletion:
                @escaping (Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<Downstream.Failure>
        ) {
            self.downstream = downstream
            self.recover = recover
            self.mapCompletion = mapCompletion
        }
    }

    @usableFromInline let name: String
    @exclusivity(unchecked)
    @usableFromInline var live: Releasable<Live>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state = CatchState()

    @inlinable
    init(
        name: String, downstream: Downstream,
        recover: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
        mapCompletion:
            @escaping (Subscribers.Completion<NewPublisher.Failure>) -> Subscribers.Completion<Downstream.Failure>
    ) {
        self.name = name
        live = Releasable(Live(downstream: downstream, recover: recover, mapCompletion: mapCompletion))
        lifetime = Lifetime { unsafeDowncast($0, to: CatchSubscription.self).live.release() }
    }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout CatchState) -> Result) -> Result { lock.withLock { body(&state) } }

    /// Inside a `lifetime` call: ends the stream with `completion`, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { live.with { $0.downstream.receive(completion: completion) } }
    }

    @usableFromInline var description: String { name }

    @usableFromInline var customMirror: Mirror {
        let demand = withState { $0.outstanding }
        return Mirror(self, children: [("downstream", live.value?.downstream as Any), ("demand", demand)])
    }

    // MARK: From the sources

    @inlinable
    func receive(subscription: any Subscription, from source: CatchSource) {
        withState { $0.subscribed(subscription, from: source) }.perform(on: subscription) {
            lifetime.call(self) { live.with { $0.downstream.receive(subscription: self) } }
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input, from source: CatchSource) -> Subscribers.Demand {
        switch withState({ $0.received(from: source) }) {
        case .drop:
            return .none
        case .trapBeforeSubscription:
            trap("API violation: \(name) received a value before its subscription")
        case .trapBeyondDemand:
            trap("API violation: \(name) received a value while downstream had no outstanding demand")
        case .deliver(let isUnlimited):
            let more = lifetime.call(self) { live.with { $0.downstream.receive(input) } } ?? .none
            if more != .none && !isUnlimited { withState { $0.delivered(more) } }
            return more
        }
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
        switch withState({ $0.upstreamCompleted(completion) }) {
        case .none:
            break
        case .trapAfterFailure:
            trap("API violation: \(name)'s upstream sent a completion after its failure")
        case .finish:
            lifetime.call(self) { complete(.finished) }
        case .recover:
            guard case .failure(let error) = completion else { return }
            lifetime.call(self) { switchToReplacement(after: error) }
        }
    }

    /// Inside a `lifetime` call.
    @inlinable
    func switchToReplacement(after error: Upstream.Failure) {
        let recovered = live.with { $0.recover(error) }
        switch recovered {
        case .success(let replacement):
            guard withState({ $0.recovered(ending: false) }) else { return }
            replacement.subscribe(CatchReplacementSide(owner: self))
        case .failure(let failure):
            guard withState({ $0.recovered(ending: true) }) else { return }
            complete(.failure(failure))
        }
    }

    @inlinable
    func replacementCompleted(_ completion: Subscribers.Completion<NewPublisher.Failure>) {
        guard withState({ $0.replacementCompleted() }) else { return }
        lifetime.call(self) { complete(live.with { $0.mapCompletion(completion) }) }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        withState { $0.requested(demand) }?.request(demand)
    }

    @inlinable
    func cancel() {
        withState { $0.cancelled() }?.cancel()
        lifetime.end(self)
    }
}

/// The subscriber the original upstream talks to.
@usableFromInline
struct CatchUpstreamSide<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    SideSubscriber
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let owner: CatchSubscription<Upstream, NewPublisher, Downstream>

    @inlinable init(owner: CatchSubscription<Upstream, NewPublisher, Downstream>) { self.owner = owner }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(owner) }

    @inlinable func receive(subscription: any Subscription) {
        owner.receive(subscription: subscription, from: .upstream)
    }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { owner.receive(input, from: .upstream) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { owner.upstreamCompleted(completion) }
}

/// The subscriber the replacement publisher talks to.
@usableFromInline
struct CatchReplacementSide<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber,
    SideSubscriber
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    @usableFromInline typealias Input = NewPublisher.Output
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let owner: CatchSubscription<Upstream, NewPublisher, Downstream>
    /// Not the owner's: the replacement may be the very publisher the upstream side is still subscribed to.
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(owner: CatchSubscription<Upstream, NewPublisher, Downstream>) {
        self.owner = owner
        combineIdentifier = CombineIdentifier()
    }

    @inlinable func receive(subscription: any Subscription) {
        owner.receive(subscription: subscription, from: .replacement)
    }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { owner.receive(input, from: .replacement) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { owner.replacementCompleted(completion) }
}
