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

/// Which of its two sources a `catch` subscription is hearing from.
@usableFromInline
enum CatchSource {
    case upstream
    case replacement
}

/// The subscription of `catch` and `tryCatch`: reads from the upstream until it fails, then from
/// the replacement; downstream sees this one subscription throughout.
///
/// One lock over one state (the phase and the outstanding demand), never held while calling out.
/// Each source talks through its own side (`CatchUpstreamSide`, `CatchReplacementSide`), so an
/// event from a source that is no longer current (the old upstream after its failure, a
/// replacement after a cancel) is recognised and ignored. The outstanding demand is kept because
/// the replacement starts with exactly that.
@usableFromInline
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    Introspected
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    @usableFromInline
    enum Phase {
        /// Reading from the upstream (its subscription once it has arrived).
        case upstream((any Subscription)?)
        /// The upstream failed; the handler runs or the replacement is subscribing.
        case switching
        /// Reading from the replacement.
        case replacement(any Subscription)
        /// Completed or cancelled.
        case done
    }

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
    @exclusivity(unchecked)
    @usableFromInline var phase = Phase.upstream(nil)
    /// Requested by downstream and not yet delivered, plus what it returned from `receive(_:)`.
    @exclusivity(unchecked)
    @usableFromInline var outstanding = Subscribers.Demand.none

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

    /// Inside a `lifetime` call: ends the stream with `completion`, once.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if lifetime.end() { live.with { $0.downstream.receive(completion: completion) } }
    }

    @usableFromInline var description: String { name }

    @usableFromInline var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: [("downstream", live.value?.downstream as Any), ("demand", outstanding)])
    }

    // MARK: From the sources

    @inlinable
    func receive(subscription: any Subscription, from source: CatchSource) {
        lock.lock()
        switch (phase, source) {
        case (.upstream(nil), .upstream):
            phase = .upstream(subscription)
            lock.unlock()
            lifetime.call(self) { live.with { $0.downstream.receive(subscription: self) } }
        case (.switching, .replacement):
            phase = .replacement(subscription)
            let demand = outstanding
            lock.unlock()
            if demand != .none { subscription.request(demand) }
        default:
            // A second subscription, or a replacement arriving after a cancel.
            lock.unlock()
            subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input, from source: CatchSource) -> Subscribers.Demand {
        lock.lock()
        switch (phase, source) {
        case (.upstream(.some), .upstream), (.replacement, .replacement): break
        case (.upstream(nil), .upstream):
            lock.unlock()
            _trap("API violation: \(name) received a value before its subscription")
        default:
            lock.unlock()
            return .none
        }
        guard outstanding > 0 else {
            lock.unlock()
            // As Combine's: the operator counts demand, and a source that overruns it traps.
            _trap("API violation: \(name) received a value while downstream had no outstanding demand")
        }
        let isUnlimited = outstanding == .unlimited
        outstanding -= 1
        lock.unlock()
        let more = lifetime.call(self) { live.with { $0.downstream.receive(input) } } ?? .none
        if more != .none && !isUnlimited {
            lock.lock()
            outstanding += more
            lock.unlock()
        }
        return more
    }

    @inlinable
    func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        switch phase {
        case .upstream(.some): break
        case .switching, .replacement:
            lock.unlock()
            _trap("API violation: \(name)'s upstream sent a completion after its failure")
        case .upstream(nil), .done:
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            phase = .done
            lock.unlock()
            lifetime.call(self) { complete(.finished) }
        case .failure(let error):
            // The failed upstream is done: it is let go, not cancelled.
            phase = .switching
            lock.unlock()
            lifetime.call(self) { switchToReplacement(after: error) }
        }
    }

    /// Inside a `lifetime` call.
    @inlinable
    func switchToReplacement(after error: Upstream.Failure) {
        let recovered = live.with { $0.recover(error) }
        // A cancel from inside the handler wins: nothing is subscribed, nothing is delivered.
        lock.lock()
        guard case .switching = phase else {
            lock.unlock()
            return
        }
        switch recovered {
        case .success(let replacement):
            lock.unlock()
            replacement.subscribe(CatchReplacementSide(owner: self))
        case .failure(let failure):
            phase = .done
            lock.unlock()
            complete(.failure(failure))
        }
    }

    @inlinable
    func replacementCompleted(_ completion: Subscribers.Completion<NewPublisher.Failure>) {
        lock.lock()
        switch phase {
        case .switching, .replacement: phase = .done
        default:
            lock.unlock()
            return
        }
        lock.unlock()
        lifetime.call(self) { complete(live.with { $0.mapCompletion(completion) }) }
    }

    // MARK: From downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero(on: description)
        lock.lock()
        let current: (any Subscription)?
        switch phase {
        case .done:
            lock.unlock()
            return
        case .upstream(let subscription): current = subscription
        case .switching: current = nil  // the replacement is asked for all of it when it arrives
        case .replacement(let subscription): current = subscription
        }
        outstanding += demand
        lock.unlock()
        current?.request(demand)
    }

    @inlinable
    func cancel() {
        lock.lock()
        let current: (any Subscription)?
        switch phase {
        case .upstream(let subscription): current = subscription
        case .replacement(let subscription): current = subscription
        case .switching, .done: current = nil
        }
        phase = .done
        lock.unlock()
        current?.cancel()
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
