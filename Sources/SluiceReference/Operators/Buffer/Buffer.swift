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
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

/// The subscription of `buffer`: a queue of values between upstream and downstream.
///
/// Values leave the queue only in `drain()`, run by one caller at a time (`isDraining`), so
/// downstream hears one thing at a time even when upstream sends on one thread while downstream
/// requests on another. Whoever finds the drain already running leaves its work in the state for
/// the drainer to pick up.
///
/// Lifetimes: downstream and the overflow strategy (its error closure) are in `live` until
/// downstream has its completion or cancels; that call takes them out under the lock, with the
/// queue, and drops them after.
private final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription, Introspected {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Upstream {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Finished, failed, or cancelled by us (`customError`): never asked again.
        case done
        /// Downstream cancelled before upstream's subscription came.
        case abandoned
    }

    /// How the stream ends, once decided and not yet delivered.
    private enum Ending {
        /// Upstream finished: delivered when the queue is empty and downstream has demand.
        case finished
        /// Upstream failed (due at once; the queue was dropped) or the queue overflowed under
        /// `.customError` (due at downstream's next request, after the values its demand allows).
        case failure(Failure, isDue: Bool)
    }

    private let lock = Lock()
    private var upstream = Upstream.awaitingSubscription
    private var queue: [Input] = []
    private var demand = Subscribers.Demand.none
    private var ending: Ending?
    private var isDraining = false

    /// What a live stream holds.
    private struct Live {
        let downstream: Downstream
        let whenFull: Publishers.BufferingStrategy<Failure>
    }

    /// `nil` once downstream has its completion or has cancelled: nothing more reaches it.
    private var live: Live?
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy

    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        live = Live(downstream: downstream, whenFull: whenFull)
        self.size = size
        self.prefetch = prefetch
    }

    private var isTerminated: Bool { live == nil }

    var description: String { "Buffer" }

    /// Combine's children: the values held, where the stream is, downstream's demand, and the
    /// completion decided and not yet delivered.
    var customMirror: Mirror {
        lock.withLock {
            let status =
                if isTerminated {
                    "terminal"
                } else if case .subscribed = upstream {
                    "subscribed"
                } else {
                    "awaiting subscription"
                }
            let terminal: Subscribers.Completion<Failure>? =
                switch ending {
                case .finished: .finished
                case .failure(let error, _): .failure(error)
                case nil: nil
                }
            return Mirror(
                self,
                children: [
                    ("values", queue), ("state", status), ("downstreamDemand", demand), ("terminal", terminal as Any),
                ])
        }
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = upstream, let downstream = live?.downstream else {
            // After a cancel that came first, Combine's buffer still asks for its prefetch (and
            // drops what comes); any other extra subscription is cancelled.
            let abandoned = if case .abandoned = upstream { true } else { false }
            if abandoned { upstream = .done }
            lock.unlock()
            if abandoned { requestPrefetch(from: subscription) } else { subscription.cancel() }
            return
        }
        upstream = .subscribed(subscription)
        // Nothing reaches downstream before its subscription, not even a failure that upstream
        // sends inside the first request: the drain is ours until downstream has it.
        isDraining = true
        lock.unlock()
        // Combine asks upstream before downstream hears of the subscription.
        requestPrefetch(from: subscription)
        downstream.receive(subscription: self)
        refill(after: drain(holdingDrain: true))
    }

    private func requestPrefetch(from subscription: any Subscription) {
        switch prefetch {
        case .keepFull: if size > 0 { subscription.request(.max(size)) }
        case .byRequest: subscription.request(.unlimited)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(let subscription) = upstream, ending == nil, let live else {
            lock.unlock()
            return .none
        }
        if demand > 0 && queue.isEmpty && !isDraining {
            // Straight through: the value never takes a place in the queue.
            demand -= 1
            isDraining = true
            lock.unlock()
            let more = live.downstream.receive(input)
            lock.withLock { demand += more }
            let delivered = 1 + drain(holdingDrain: true)
            return prefetch == .keepFull ? .max(delivered) : .none
        }
        if queue.count < size {
            queue.append(input)
            lock.unlock()
            return .none
        }
        switch live.whenFull {
        case .dropNewest:
            lock.unlock()
        case .dropOldest:
            queue.removeFirst()
            queue.append(input)
            lock.unlock()
        case .customError(let makeError):
            upstream = .done
            lock.unlock()
            subscription.cancel()
            let error = makeError()
            lock.withLock { if ending == nil { ending = .failure(error, isDue: false) } }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps upstream's subscription until the lock is released.
        let previous = upstream
        guard case .subscribed = previous, ending == nil, !isTerminated else {
            lock.unlock()
            return
        }
        upstream = .done
        switch completion {
        case .finished:
            ending = .finished
        case .failure(let error):
            // A failure does not wait for the queue: what is buffered is dropped.
            queue.removeAll()
            ending = .failure(error, isDue: true)
        }
        lock.unlock()
        _ = drain(holdingDrain: false)
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        // Combine's buffer takes `.none` without trapping, and asks for nothing.
        guard demand > 0 else { return }
        lock.lock()
        guard !isTerminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        if case .failure(let error, isDue: false) = ending { ending = .failure(error, isDue: true) }
        lock.unlock()
        refill(after: drain(holdingDrain: false))
    }

    func cancel() {
        lock.lock()
        let previous = upstream
        // Kept until the lock is released: downstream, the strategy and the queued values.
        let released = (live.take(), queue)
        if case .awaitingSubscription = previous { upstream = .abandoned } else { upstream = .done }
        queue.removeAll()
        lock.unlock()
        if case .subscribed(let subscription) = previous { subscription.cancel() }
        withExtendedLifetime(released) {}
    }

    /// With `.keepFull`, asks upstream again for the room that `delivered` values leaving made.
    private func refill(after delivered: Int) {
        guard prefetch == .keepFull, delivered > 0 else { return }
        lock.lock()
        guard case .subscribed(let subscription) = upstream, !isTerminated else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(.max(delivered))
    }

    /// Delivers queued values while downstream has demand, then the ending if it is due. Returns
    /// how many values this call delivered. If another call is already draining, it returns 0
    /// at once: the drainer re-reads the state before it stops, so it picks up what changed.
    ///
    /// `holdingDrain`: the caller (the straight-through value path, or the subscription handoff)
    /// already owns the drain.
    private func drain(holdingDrain: Bool) -> Int {
        lock.lock()
        if !holdingDrain {
            guard !isDraining else {
                lock.unlock()
                return 0
            }
            isDraining = true
        }
        var delivered = 0
        while true {
            guard let downstream = live?.downstream else {
                isDraining = false
                lock.unlock()
                return delivered
            }
            if demand > 0, !queue.isEmpty {
                let value = queue.removeFirst()
                demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                demand += more
                delivered += 1
                continue
            }
            let due: Subscribers.Completion<Failure>?
            switch ending {
            case .finished where queue.isEmpty && demand > 0: due = .finished
            case .failure(let error, isDue: true): due = .failure(error)
            default: due = nil
            }
            guard let due else {
                isDraining = false
                lock.unlock()
                return delivered
            }
            // Kept until the lock is released: downstream, the strategy and the queued values.
            let released = (live.take(), queue)
            isDraining = false
            queue.removeAll()
            lock.unlock()
            downstream.receive(completion: due)
            withExtendedLifetime(released) {}
            return delivered
        }
    }
}
