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
    /// `nil` until the promise is fulfilled; never changes afterwards. Boxed (see `Box`): a future
    /// is freed per query in search as you type.
    @exclusivity(unchecked)
    @usableFromInline var result: Box<Result<Output, Failure>>?
    /// The subscriptions that arrived before the result, in order of subscription.
    @exclusivity(unchecked)
    @usableFromInline var waiting: [any FutureWaiter<Output, Failure>] = []

    /// Creates a publisher and runs `attemptToFulfill` at once with the promise that settles it.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in fulfill(result) }
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(future: self, downstream: Releasable(subscriber))
        lock.lock()
        if let failed = result?.value.isFailure {
            lock.unlock()
            subscription.settle(failed: failed)
        } else {
            waiting.append(subscription)
            lock.unlock()
        }
        subscriber.receive(subscription: subscription)
        subscription.handedOver()
    }

    /// The promise: the first result wins and goes to every waiting subscription, outside the lock.
    /// (`@inlinable`, as `init`: the promise is then made specialised where the future is created.)
    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = Box(result)
        let settled = waiting
        waiting = []
        lock.unlock()
        for subscription in settled { subscription.settle(failed: result.isFailure) }
    }

    /// Forgets a cancelled subscription, so that the future does not keep it alive.
    @usableFromInline
    func remove(_ subscription: any FutureWaiter<Output, Failure>) {
        lock.withLock { waiting.removeAll { $0 === subscription } }
    }
}

/// What the future holds of a subscription: something told once that the result is known.
@usableFromInline
protocol FutureWaiter<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// The result is known (the future holds it), and whether it is a failure; called exactly once,
    /// by the future.
    func settle(failed: Bool)
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
///
/// The subscriber calls `request` and `cancel`, and the future `settle`, through existentials, whose
/// witnesses run unspecialised and would look up type metadata on every call: each forwards to an
/// entry made in `init`, which is inlined where the subscriber subscribes and so is specialised for
/// it. The result is read from the future (which keeps it) rather than copied here.
///
/// `Held` is its `Releasable<Downstream>` (see `ReleasableSlot`): freeing the subscription then looks
/// no type up.
@usableFromInline
final class FutureSubscription<Held: ReleasableSlot>: FutureWaiter, Subscription, Introspected
where Held.Value: Subscriber {
    @usableFromInline typealias Downstream = Held.Value
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline static var requested: UInt8 { 1 }
    @usableFromInline static var settled: UInt8 { 2 }
    @usableFromInline static var handedOver: UInt8 { 4 }
    @usableFromInline static var done: UInt8 { 8 }
    /// Downstream cancelled (perhaps from inside the value's `receive`: then no completion follows).
    @usableFromInline static var cancelled: UInt8 { 16 }
    /// Raised with `settled` when the result is a failure, which goes out without demand.
    @usableFromInline static var failed: UInt8 { 32 }

    @usableFromInline let state = Atomic<UInt8>(0)
    /// Used and let go of by the one caller that sets `done` (the delivery, or the cancel): no
    /// other call touches it, so no gate is needed.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Held
    /// Held until the delivery or the cancel, so that `cancel()` can leave the waiting list and the
    /// delivery can read the result; touched afterwards only by the one caller that set `done`.
    @exclusivity(unchecked)
    @usableFromInline var future: Future<Output, Failure>?
    /// `raise(_:)` and `cancelHere()`, specialised (see above).
    @usableFromInline let raiseEntry: (FutureSubscription, UInt8) -> Void
    @usableFromInline let cancelEntry: (FutureSubscription) -> Void

    @inlinable
    init(future: Future<Output, Failure>, downstream: Held) {
        self.future = future
        self.downstream = downstream
        raiseEntry = { subscription, flag in subscription.raise(flag) }
        cancelEntry = { subscription in subscription.cancelHere() }
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
    func settle(failed: Bool) { raiseEntry(self, failed ? Self.settled | Self.failed : Self.settled) }

    /// Called once `receive(subscription:)` has returned.
    @inlinable
    func handedOver() { raise(Self.handedOver) }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        raiseEntry(self, Self.requested)
    }

    @inlinable
    func cancel() { cancelEntry(self) }

    @inlinable
    func cancelHere() {
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
            if current & Self.failed == 0, current & Self.requested == 0 { return }
            let (won, seen) = state.compareExchange(
                expected: current, desired: current | Self.done, ordering: .acquiringAndReleasing)
            guard won else {
                current = seen
                continue
            }
            // This call set `done`, so `future` is its alone (a cancel now returns at once); the
            // future wrote its result before `settled` was raised, and never changes it.
            guard let result = future?.result?.value else { return }
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

extension Result {
    /// Whether this is a failure.
    @inlinable var isFailure: Bool {
        if case .failure = self { true } else { false }
    }
}
