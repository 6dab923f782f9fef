// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// The future's lock guards only its result and its list of waiting subscriptions, and is never held while a
// subscriber is called. Each subscription then settles with one atomic state word.
/// A publisher that eventually produces a single value and then finishes, or fails.
///
/// The closure runs once, when the future is created, not per subscription. The first call of the promise
/// settles the result; later calls are ignored. The result is replayed to every subscriber, present and
/// future: a value waits for the subscriber's first request and is followed by `.finished`; a failure is sent
/// at once, without demand. The promise may be called from any thread.
public final class Future<Output, Failure: Error>: Publisher {
    /// A closure the future's creator calls, once, with the result.
    public typealias Promise = (Result<Output, Failure>) -> Void

    @usableFromInline let lock = Lock()
    /// `nil` until the promise is fulfilled; never changes afterwards.
    @exclusivity(unchecked)
    @usableFromInline var result: Result<Output, Failure>?
    /// The subscriptions that arrived before the result, in order of subscription.
    @exclusivity(unchecked)
    @usableFromInline var waiting: [any FutureWaiter<Output, Failure>] = []

    /// Creates a publisher and runs `attemptToFulfill` at once with the promise that settles it.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in fulfill(result) }
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(future: self, downstream: subscriber)
        lock.lock()
        if let result {
            lock.unlock()
            subscription.settle(result)
        } else {
            waiting.append(subscription)
            lock.unlock()
        }
        subscriber.receive(subscription: subscription)
        subscription.handedOver()
    }

    /// The promise: the first result wins and goes to every waiting subscription, outside the lock.
    @usableFromInline
    func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let settled = waiting
        waiting = []
        lock.unlock()
        for subscription in settled { subscription.settle(result) }
    }

    /// Forgets a cancelled subscription, so that the future does not keep it alive.
    @usableFromInline
    func remove(_ subscription: any FutureWaiter<Output, Failure>) {
        lock.withLock { waiting.removeAll { $0 === subscription } }
    }
}

/// What the future holds of a subscription: something the result can be handed to.
@usableFromInline
protocol FutureWaiter<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// Hands the result over; called exactly once, by the future.
    func settle(_ result: Result<Output, Failure>)
}

/// One subscriber's view of a future.
///
/// Its life is one atomic word of flags. The result is delivered by whichever call (`settle`,
/// `request`, or `handedOver` after `receive(subscription:)` returns) completes the condition
/// "result known, subscriber handed its subscription, and a request made or the result a
/// failure"; the compare-and-exchange that sets `done` picks exactly one deliverer. Waiting for the
/// hand-over keeps signals serial when the promise is fulfilled on another thread meanwhile. A
/// request itself needs no hand-over: it comes from the subscriber, so a result already known is
/// delivered inside that request, as Combine does (also from inside `receive(subscription:)`).
@usableFromInline
final class FutureSubscription<Downstream: Subscriber>: FutureWaiter, Subscription, Introspected {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline static var requested: UInt8 { 1 }
    @usableFromInline static var settled: UInt8 { 2 }
    @usableFromInline static var handedOver: UInt8 { 4 }
    @usableFromInline static var done: UInt8 { 8 }
    /// Downstream cancelled (perhaps from inside the value's `receive`: then no completion follows).
    @usableFromInline static var cancelled: UInt8 { 16 }

    @usableFromInline let state = Atomic<UInt8>(0)
    /// Used and let go of by the one caller that sets `done` (the delivery, or the cancel): no
    /// other call touches it, so no gate is needed.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    /// Written once by `settle`, before `settled` is published with release ordering; read only
    /// after `settled` has been seen with acquire ordering.
    @exclusivity(unchecked)
    @usableFromInline var result: Result<Output, Failure>?
    /// Held while waiting, so that `cancel()` can leave the waiting list; touched afterwards only
    /// by the one caller that set `done`.
    @exclusivity(unchecked)
    @usableFromInline var future: Future<Output, Failure>?

    @inlinable
    init(future: Future<Output, Failure>, downstream: Downstream) {
        self.future = future
        self.downstream = Releasable(downstream)
    }

    @usableFromInline var description: String { "Future" }

    /// Combine's children: the future (as parent and subject), the subscriber, whether it asked.
    @usableFromInline var customMirror: Mirror {
        let future = future
        return Mirror(
            self,
            children: [
                ("parent", future as Any), ("downstream", downstream.value as Any),
                ("hasAnyDemand", state.load(ordering: .acquiring) & Self.requested != 0), ("subject", future as Any),
            ])
    }

    @inlinable
    func settle(_ result: Result<Output, Failure>) {
        self.result = result
        raise(Self.settled)
    }

    /// Called once `receive(subscription:)` has returned.
    @inlinable
    func handedOver() { raise(Self.handedOver) }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        raise(Self.requested)
    }

    @inlinable
    func cancel() {
        let before = state.bitwiseOr(Self.done | Self.cancelled, ordering: .acquiringAndReleasing).oldValue
        guard before & Self.done == 0 else { return }
        let future = self.future
        self.future = nil
        future?.remove(self)
        downstream.release()
    }

    /// Sets a flag, then delivers if this call made the result deliverable.
    @inlinable
    func raise(_ flag: UInt8) {
        var current = state.bitwiseOr(flag, ordering: .acquiringAndReleasing).newValue
        let handedOver = flag == Self.requested ? Self.requested : Self.handedOver
        while current & Self.done == 0, current & Self.settled != 0, current & handedOver != 0 {
            guard let result else { return }
            if case .success = result, current & Self.requested == 0 { return }
            let (won, seen) = state.compareExchange(
                expected: current, desired: current | Self.done, ordering: .acquiringAndReleasing)
            guard won else {
                current = seen
                continue
            }
            self.result = nil
            switch result {
            case .success(let value):
                _ = downstream.with { $0.receive(value) }
                if state.load(ordering: .acquiring) & Self.cancelled == 0 {
                    downstream.with { $0.receive(completion: .finished) }
                }
            case .failure(let error):
                downstream.with { $0.receive(completion: .failure(error)) }
            }
            // As Combine's, the subscription shows its future until the completion is delivered.
            future = nil
            downstream.release()
            return
        }
    }
}

extension Future where Failure == Never {
    /// The future's value, once its promise is fulfilled.
    public var value: Output {
        get async { await outcome.value.get() }
    }
}

extension Future {
    /// The future's value once its promise is fulfilled; throws the failure it is fulfilled with.
    public var value: Output {
        get async throws { try await outcome.value.get() }
    }

    /// How the promise is fulfilled. A sink waits for it: the future holds the sink until it delivers.
    private var outcome: Handover<Result<Output, Failure>> {
        get async {
            await withCheckedContinuation { continuation in
                subscribe(
                    Subscribers.Sink(
                        receiveCompletion: {
                            if case .failure(let error) = $0 {
                                continuation.resume(returning: Handover(.failure(error)))
                            }
                        },
                        receiveValue: { continuation.resume(returning: Handover(.success($0))) }))
            }
        }
    }
}
