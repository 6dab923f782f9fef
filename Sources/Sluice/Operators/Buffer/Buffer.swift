// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// - `size`: how many values the buffer holds.
    /// - `prefetch`: `.keepFull` asks upstream for `size` values at once and for one more each
    ///   time a value leaves; `.byRequest` asks upstream for everything.
    /// - `whenFull`: what a value that does not fit does: it is dropped (`.dropNewest`), it
    ///   pushes out the oldest (`.dropOldest`), or upstream is cancelled and the stream fails
    ///   with the error, after downstream's next request has taken what it can (`.customError`).
    ///
    /// An upstream failure is passed on at once and the buffered values are dropped; `.finished`
    /// is passed on once the buffer is empty and downstream has demand.
    @inlinable
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
        case keepFull
        /// A strategy that avoids prefetching and instead performs requests on demand.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer's capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest
        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest
        /// When the buffer is full, execute the closure to provide a custom error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    @frozen
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of elements to store.
        public let size: Int
        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy
        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Creates a publisher that buffers elements received from an upstream publisher.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

/// The subscription of `buffer`: its state is a `BufferState` under one lock, never held while
/// calling out. Values reach downstream only from the holder of the state's delivering turn, so
/// downstream hears one thing at a time even when upstream sends on one thread while downstream
/// requests on another; with the ring empty and demand outstanding, a value goes straight through.
@usableFromInline
final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription, SerialDelivering, Introspected {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Value = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure
    @usableFromInline typealias State = BufferState<Input, Failure>

    /// Used only inside calls through `lifetime` (`whenFull` may hold the user's closure).
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @exclusivity(unchecked)
    @usableFromInline var whenFull: Releasable<Publishers.BufferingStrategy<Failure>>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = Releasable(downstream)
        self.whenFull = Releasable(whenFull)
        lifetime = Lifetime { unsafeDowncast($0, to: BufferSubscription.self).release() }
        let overflow: State.Overflow =
            switch whenFull {
            case .dropNewest: .dropNewest
            case .dropOldest: .dropOldest
            case .customError: .fail
            }
        state = State(size: size, keepFull: prefetch == .keepFull, overflow: overflow)
    }

    /// Lets go of downstream and the strategy: called once, when `lifetime` says so.
    @inlinable
    func release() {
        downstream.release()
        whenFull.release()
    }

    @inlinable @inline(__always)
    func withState<Result>(_ body: (inout State) -> Result) -> Result { lock.withLock { body(&state) } }

    @usableFromInline var description: String { "Buffer" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: withState { $0.children }) }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        switch withState({ $0.upstreamArrived(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .prefetchOnly:
            requestPrefetch(from: subscription)
        case .start:
            // Upstream is asked before downstream hears of the subscription, as in Combine.
            requestPrefetch(from: subscription)
            lifetime.call(self) {
                downstream.with { $0.receive(subscription: self) }
                drain(withState { $0.nextDelivery(adding: .none) })
            }
            refill()
        }
    }

    @inlinable
    func requestPrefetch(from subscription: any Subscription) {
        let prefetch = state.prefetch  // immutable parts of the state: no lock
        if prefetch != .none { subscription.request(prefetch) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lifetime.call(self) { accept(input) } ?? .none
    }

    /// Inside a `lifetime` call: one value from upstream.
    @inlinable
    func accept(_ input: Input) -> Subscribers.Demand {
        switch withState({ $0.received(input) }) {
        case .none:
            return .none
        case .deliver:
            drain(.value(input))
            // What left the buffer, this value included, is asked for again by the answer.
            return state.keepFull ? .max(withState { $0.takeRefill() }.count) : .none
        case .pushedOut(let oldest):
            _ = consume oldest
            return .none
        case .overflowed(let upstream):
            upstream.cancel()
            guard case .customError(let makeError) = whenFull.with({ $0 }) else { return .none }
            let error = makeError()
            withState { $0.overflowed(with: error) }
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard withState({ $0.upstreamCompleted(completion) }) else { return }
        lifetime.call(self) { drain(withState { $0.nextDelivery(adding: .none) }) }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As Combine's buffer, it takes `.none` without trapping, and it asks for nothing.
        guard demand != .none, withState({ $0.requested(demand) }) else { return }
        lifetime.call(self) { drain(withState { $0.nextDelivery(adding: .none) }) }
        refill()
    }

    @inlinable
    func cancel() {
        let (upstream, dropped) = withState { $0.cancelled() }
        upstream?.cancel()
        lifetime.end(self)
        _ = dropped  // the values' deinits are user code: outside the lock
    }

    /// Under `.keepFull`, once the turn is given back: asks upstream to fill the room that values
    /// leaving the ring made.
    @inlinable
    func refill() {
        guard state.keepFull else { return }
        let (upstream, count) = withState { $0.takeRefill() }
        upstream?.request(.max(count))
    }

    // MARK: Delivery (the holder of the turn, inside a `lifetime` call)

    @inlinable
    func deliver(_ value: Input) -> Subscribers.Demand { downstream.with { $0.receive(value) } }

    @inlinable
    func delivered(_ more: Subscribers.Demand) -> State.Step { withState { $0.nextDelivery(adding: more) } }

    @inlinable
    func callOut(_ callout: Never) -> State.Step {}

    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
    }
}
