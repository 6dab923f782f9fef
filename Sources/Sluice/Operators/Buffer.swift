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

/// The subscription of `buffer`.
///
/// One lock guards the ring, the demand (a count; `UInt.max` is unlimited) and the flags; it is
/// never held while calling out. Values reach downstream only from the one caller that holds
/// the drain (`draining`), so downstream hears one thing at a time even when upstream sends on
/// one thread while downstream requests on another; a caller that finds the drain taken leaves
/// its change in the state, and the drainer re-reads the state before it lets go. With the ring
/// empty and demand outstanding, a value goes straight through without entering the ring.
@usableFromInline
final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Used only inside calls through `lifetime` (`whenFull` may hold the user's closure).
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @exclusivity(unchecked)
    @usableFromInline var whenFull: Releasable<Publishers.BufferingStrategy<Failure>>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let size: Int
    @usableFromInline let keepFull: Bool
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var ring = RingBuffer<Input>()
    @exclusivity(unchecked)
    @usableFromInline var demand: UInt = 0
    /// Upstream's subscription while it may still send; nil before it arrives and once it is done.
    @exclusivity(unchecked)
    @usableFromInline var upstream: (any Subscription)?
    /// Upstream has subscribed and then finished, failed, or been cancelled by this buffer.
    @exclusivity(unchecked)
    @usableFromInline var upstreamDone = false
    /// The completion decided and not yet delivered. `.finished` waits for an empty ring and
    /// demand; a failure waits for `failureDue`.
    @exclusivity(unchecked)
    @usableFromInline var pending: Subscribers.Completion<Failure>?
    /// An upstream failure is due at once; an overflow's error at downstream's next request.
    @exclusivity(unchecked)
    @usableFromInline var failureDue = false
    @exclusivity(unchecked)
    @usableFromInline var draining = false
    /// Downstream has its completion or has cancelled.
    @exclusivity(unchecked)
    @usableFromInline var terminated = false

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = Releasable(downstream)
        self.whenFull = Releasable(whenFull)
        lifetime = Lifetime { unsafeDowncast($0, to: BufferSubscription.self).release() }
        self.size = size
        keepFull = prefetch == .keepFull
    }

    /// Lets go of downstream and the strategy: called once, when `lifetime` says so.
    @inlinable
    func release() {
        downstream.release()
        whenFull.release()
    }

    @usableFromInline var description: String { "Buffer" }

    @usableFromInline var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        let state = terminated ? "terminal" : upstream == nil ? "awaiting subscription" : "subscribed"
        return Mirror(
            self,
            children: [
                ("values", ring.elements), ("state", state),
                ("downstreamDemand", Subscribers.Demand.max(Int(clamping: demand))),
                ("terminal", pending as Any),
            ])
    }

    // MARK: Upstream

    @inlinable
    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !upstreamDone, !terminated else {
            // Cancelled before this subscription came: as Combine's, the buffer still asks for
            // its prefetch (and drops what comes).
            let abandoned = terminated && !upstreamDone
            upstreamDone = true
            lock.unlock()
            if abandoned { requestPrefetch(from: subscription) } else { subscription.cancel() }
            return
        }
        upstream = subscription
        // The drain is held until downstream has its subscription: nothing (not even a failure
        // upstream sends inside the first request) reaches downstream before it.
        draining = true
        lock.unlock()
        // Upstream is asked before downstream hears of the subscription, as in Combine.
        requestPrefetch(from: subscription)
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        refill(after: drainOwned(adding: .none))
    }

    @inlinable
    func requestPrefetch(from subscription: any Subscription) {
        if !keepFull {
            subscription.request(.unlimited)
        } else if size > 0 {
            subscription.request(.max(size))
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lifetime.call(self) { accept(input) } ?? .none
    }

    /// Inside a `lifetime` call: one value from upstream.
    @inlinable
    func accept(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard upstream != nil, pending == nil, !terminated else {
            lock.unlock()
            return .none
        }
        if demand != 0 && ring.isEmpty && !draining {
            if demand != .max { demand -= 1 }
            draining = true
            lock.unlock()
            let more = downstream.with { $0.receive(input) }
            let delivered = 1 &+ drainOwned(adding: more)
            return keepFull ? .max(delivered) : .none
        }
        if ring.count < size {
            ring.append(input)
            lock.unlock()
            return .none
        }
        overflow(input)
        return .none
    }

    /// The ring is full (the lock is held; this releases it).
    /// Inside a `lifetime` call, under `lock`.
    @usableFromInline
    func overflow(_ input: Input) {
        switch whenFull.with({ $0 }) {
        case .dropNewest:
            lock.unlock()
        case .dropOldest:
            if ring.isEmpty {
                lock.unlock()  // size 0: nothing to push out, nowhere to put it
                return
            }
            let oldest = ring.removeFirst()
            ring.append(input)
            lock.unlock()
            _ = consume oldest  // released outside the lock: its deinit is user code
        case .customError(let makeError):
            let current = upstream
            upstream = nil
            upstreamDone = true
            lock.unlock()
            current?.cancel()
            let error = makeError()
            lock.lock()
            if pending == nil { pending = .failure(error) }
            lock.unlock()
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard upstream != nil, pending == nil, !terminated else {
            lock.unlock()
            return
        }
        upstream = nil
        upstreamDone = true
        pending = completion
        if case .failure = completion {
            // A failure does not wait for the ring: what is buffered is dropped.
            ring.removeAll()
            failureDue = true
        }
        guard !draining else {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        _ = drainOwned(adding: .none)
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As Combine's buffer, it takes `.none` without trapping, and it asks for nothing.
        guard demand != .none else { return }
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        self.demand = demand._adding(to: self.demand)
        if pending != nil { failureDue = true }
        guard !draining else {
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        refill(after: drainOwned(adding: .none))
    }

    @inlinable
    func cancel() {
        lock.lock()
        terminated = true
        let current = upstream
        upstream = nil
        // Left false by a cancel before upstream's subscription: `receive(subscription:)` tells
        // that late subscription by it.
        if current != nil { upstreamDone = true }
        let dropped = ring  // dropped outside the lock: the values' deinits are user code
        ring = RingBuffer()
        lock.unlock()
        current?.cancel()
        lifetime.end(self)
        _ = dropped
    }

    /// Under `.keepFull`, asks upstream to fill the room that `delivered` values leaving the ring made.
    @inlinable
    func refill(after delivered: Int) {
        guard keepFull, delivered > 0 else { return }
        lock.lock()
        let current = terminated ? nil : upstream
        lock.unlock()
        current?.request(.max(delivered))
    }

    /// Runs the drain, which the caller holds: adds `returned` (downstream's answer to a value the
    /// caller delivered), delivers from the ring while there is demand, then the completion if it
    /// is due, and lets go of the drain. Returns how many values it delivered.
    /// Delivers what it can, as the one drain; a call through `lifetime` of its own.
    @usableFromInline
    func drainOwned(adding returned: Subscribers.Demand) -> Int {
        lifetime.call(self) { drainWhileLive(adding: returned) } ?? unlockedDrainEnd()
    }

    /// The stream has ended: the drain just lets go of its flag.
    @usableFromInline
    func unlockedDrainEnd() -> Int {
        lock.withLock { draining = false }
        return 0
    }

    @usableFromInline
    func drainWhileLive(adding returned: Subscribers.Demand) -> Int {
        var delivered = 0
        var more = returned
        lock.lock()
        while true {
            if more != .none { demand = more._adding(to: demand) }
            more = .none
            if terminated { break }
            if demand != 0 && !ring.isEmpty {
                let value = ring.removeFirst()
                if demand != .max { demand -= 1 }
                lock.unlock()
                more = downstream.with { $0.receive(value) }
                delivered += 1
                lock.lock()
                continue
            }
            guard let completion = pending else { break }
            switch completion {
            case .finished where !ring.isEmpty || demand == 0: break
            case .failure where !failureDue: break
            default:
                terminated = true
                draining = false
                ring.removeAll()
                lock.unlock()
                if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
                return delivered
            }
            break
        }
        draining = false
        lock.unlock()
        return delivered
    }
}
