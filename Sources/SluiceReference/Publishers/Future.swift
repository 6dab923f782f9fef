// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that eventually produces a single value and then finishes, or fails.
///
/// The closure runs once, when the future is created, not per subscription. The first call of the promise
/// settles the result; later calls are ignored. The result is replayed to every subscriber, present and
/// future: a value waits for the subscriber's first request and is followed by `.finished`; a failure is sent
/// at once, without demand. The promise may be called from any thread.
public final class Future<Output, Failure: Error>: Publisher {
    /// A closure the future's creator calls, once, with the result.
    public typealias Promise = (Result<Output, Failure>) -> Void

    private let lock = Lock()
    /// `nil` until the promise is fulfilled.
    private var result: Result<Output, Failure>?
    /// The subscriptions still waiting for the result, in order of subscription.
    private var waiting: [any FutureWaiter<Output, Failure>] = []

    /// Creates a publisher and runs `attemptToFulfill` at once with the promise that settles it.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill(fulfill)
    }

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
        subscription.handOver()
    }

    /// The promise: the first result wins, and goes to every waiting subscription, outside the lock.
    private func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let receivers = waiting
        waiting = []
        lock.unlock()
        for receiver in receivers {
            receiver.settle(result)
        }
    }

    /// Forgets a cancelled subscription, so the future does not keep it alive.
    fileprivate func remove(_ receiver: any FutureWaiter<Output, Failure>) {
        lock.withLock { waiting.removeAll { $0 === receiver } }
    }
}

/// What the future knows of its subscriptions: they take the result.
private protocol FutureWaiter<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error
    func settle(_ result: Result<Output, Failure>)
}

/// One subscriber's view of a future.
///
/// Signals to the subscriber stay serial even when the promise is fulfilled on another thread:
/// until `receive(subscription:)` has returned, a result arriving from elsewhere is only stored,
/// and `handOver()` delivers it afterwards. A `request` comes from the subscriber itself, so it
/// may deliver at once.
private final class FutureSubscription<Downstream: Subscriber>: Subscription, FutureWaiter, Introspected {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        /// Created; the subscriber has not been handed the subscription yet.
        case handingOver(Downstream, requested: Bool, result: Result<Output, Failure>?)
        /// The subscriber holds the subscription.
        case subscribed(Downstream, requested: Bool, result: Result<Output, Failure>?)
        case terminated
    }

    private let lock = Lock()
    private var state: State
    /// Set by `cancel()`: the completion does not follow a last value that a cancel came after.
    private var cancelled = false
    /// Kept while waiting, as Combine does; dropped on termination.
    private var future: Future<Output, Failure>?

    init(future: Future<Output, Failure>, downstream: Downstream) {
        self.future = future
        state = .handingOver(downstream, requested: false, result: nil)
    }

    var description: String { "Future" }

    /// Combine's children: the future (while it is kept), the subscriber, whether it has asked.
    var customMirror: Mirror {
        lock.withLock {
            let (downstream, requested): (Downstream?, Bool) =
                switch state {
                case .handingOver(let downstream, let requested, _), .subscribed(let downstream, let requested, _):
                    (downstream, requested)
                case .terminated: (nil, false)
                }
            return Mirror(
                self,
                children: [
                    ("parent", future as Any), ("downstream", downstream as Any), ("hasAnyDemand", requested),
                    ("subject", future as Any),
                ])
        }
    }

    /// Gives the subscriber its subscription, then delivers whatever became ready meanwhile.
    func handOver() {
        lock.lock()
        guard case .handingOver(let downstream, _, _) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
        lock.lock()
        if case .handingOver(let downstream, let requested, let result) = state {
            state = .subscribed(downstream, requested: requested, result: result)
        }
        deliverIfReady()
    }

    func settle(_ result: Result<Output, Failure>) {
        lock.lock()
        switch state {
        case .handingOver(let downstream, let requested, nil):
            state = .handingOver(downstream, requested: requested, result: result)
            lock.unlock()
        case .subscribed(let downstream, let requested, nil):
            state = .subscribed(downstream, requested: requested, result: result)
            deliverIfReady()
        default:
            lock.unlock()
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.lock()
        switch state {
        case .handingOver(let downstream, _, let result):
            // The subscriber itself is calling, from inside `receive(subscription:)`: delivering
            // to it now keeps its signals serial. A result arriving from another thread meanwhile
            // still waits for `handOver()`.
            state = .handingOver(downstream, requested: true, result: result)
            deliverIfReady(downstream, requested: true, result: result)
        case .subscribed(let downstream, _, let result):
            state = .subscribed(downstream, requested: true, result: result)
            deliverIfReady(downstream, requested: true, result: result)
        case .terminated:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        guard !isTerminated else {
            lock.unlock()
            return
        }
        // `previous` keeps the subscriber until the lock is released: its deinit may run any code.
        let previous = state
        state = .terminated
        let future = self.future
        self.future = nil
        lock.unlock()
        future?.remove(self)
        withExtendedLifetime(previous) {}
    }

    private var isTerminated: Bool {
        if case .terminated = state { true } else { false }
    }

    /// Called with the lock held; releases it. Delivers if the subscriber holds the subscription.
    private func deliverIfReady() {
        guard case .subscribed(let downstream, let requested, let result) = state else {
            lock.unlock()
            return
        }
        deliverIfReady(downstream, requested: requested, result: result)
    }

    /// Called with the lock held; releases it. A failure goes at once, a value once it has been
    /// asked for, followed by `.finished`.
    private func deliverIfReady(_ downstream: Downstream, requested: Bool, result: Result<Output, Failure>?) {
        switch result {
        case .failure(let error)?:
            state = .terminated
            lock.unlock()
            downstream.receive(completion: .failure(error))
            releaseFuture()
        case .success(let value)? where requested:
            state = .terminated
            lock.unlock()
            downstream.receiveLast(value, then: .finished) { lock.withLock { cancelled } }
            releaseFuture()
        default:
            lock.unlock()
        }
    }

    /// As Combine's, the subscription shows its future until the completion is delivered, and
    /// lets go of it then (after the lock).
    private func releaseFuture() {
        let future = lock.withLock { self.future.take() }
        withExtendedLifetime(future) {}
    }
}

extension Future where Failure == Never {
    /// The future's value, once its promise is fulfilled.
    public var value: Output {
        get async {
            await fulfilment.value.get()
        }
    }
}

extension Future {
    /// The future's value once its promise is fulfilled; throws the failure it is fulfilled with.
    public var value: Output {
        get async throws {
            try await fulfilment.value.get()
        }
    }

    /// How the promise was fulfilled. The future keeps the subscriber until it delivers.
    private var fulfilment: Handover<Result<Output, Failure>> {
        get async {
            await withCheckedContinuation { continuation in
                subscribe(
                    Subscribers.Sink(
                        receiveCompletion: {
                            if case .failure(let error) = $0 {
                                continuation.resume(returning: Handover(value: .failure(error)))
                            }
                        },
                        receiveValue: { continuation.resume(returning: Handover(value: .success($0))) }))
            }
        }
    }
}
