// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Failure == Never {
    /// The elements of this publisher as an asynchronous sequence: `for await value in publisher.values`.
    ///
    /// Each `next()` asks upstream for one more element, so values that a publisher sends while no
    /// `next()` is waiting are not buffered: a `PassthroughSubject` drops what it sends while the
    /// iterating task is busy elsewhere, as Apple's does.
    public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension Publisher {
    /// The elements of this publisher as an asynchronous throwing sequence: its failure is thrown
    /// by the `next()` that meets it.
    ///
    /// As with `values` of a publisher that cannot fail, elements are asked for one per `next()`
    /// and not buffered.
    public var values: AsyncThrowingPublisher<Self> { AsyncThrowingPublisher(self) }
}

/// A publisher that never fails, as an `AsyncSequence`.
///
/// Making an iterator subscribes to the publisher. Each `next()` requests one element; cancelling
/// the task that waits in `next()` cancels the subscription, and so does letting go of the last
/// copy of the iterator. After the end every `next()` returns `nil`.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output

    private let publisher: P

    /// Creates an asynchronous sequence of the elements of `publisher`.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// The iterator: each `next()` asks the publisher for one element and waits for it.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of the elements: the publisher's output.
        public typealias Element = P.Output

        fileprivate let inner: AsyncIteration<P.Output, Never>.Handle

        /// The next element, or `nil` once the publisher has finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            // A publisher that cannot fail ends with `nil`, never with an error.
            await inner.next()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(inner: AsyncIteration.subscribe(to: publisher))
    }
}

/// A publisher as an `AsyncSequence` whose iteration throws the publisher's failure.
///
/// As `AsyncPublisher`, and: the failure is thrown by the `next()` that meets it (a failure that
/// comes while no `next()` waits is kept for the next one); every `next()` after that returns `nil`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output

    private let publisher: P

    /// Creates an asynchronous throwing sequence of the elements of `publisher`.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// The iterator: each `next()` asks the publisher for one element and waits for it.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of the elements: the publisher's output.
        public typealias Element = P.Output

        fileprivate let inner: AsyncIteration<P.Output, P.Failure>.Handle

        /// The next element, or `nil` once the publisher has finished or the task was cancelled.
        public mutating func next() async throws -> P.Output? {
            try await inner.next()
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(inner: AsyncIteration.subscribe(to: publisher))
    }
}

/// A value handed from the thread a publisher sends on to the task that awaits it. It crosses
/// once, and the sender keeps nothing of it: Combine's elements need not be `Sendable`.
struct Handover<Value>: @unchecked Sendable {
    let value: Value
}

/// The subscriber behind both iterators: `next()` calls wait here, first come first served, each
/// with one element of demand. One lock over the fields below; a continuation is resumed, and
/// upstream called, only after it is released.
final class AsyncIteration<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Waiter = CheckedContinuation<Handover<Result<Output?, Failure>>, Never>

    private enum Upstream {
        /// Demand asked for by `next()` calls before the subscription came waits in `pending`.
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Completed or cancelled: every later `next()` returns `nil` (after a kept failure).
        case ended
    }

    private let lock = Lock()
    private var upstream = Upstream.awaitingSubscription
    private var pending = Subscribers.Demand.none
    private var waiters: [Waiter] = []
    /// A failure that came while no `next()` waited: the next one throws it.
    private var failure: Failure?

    /// What an iterator holds: when the last copy of the iterator goes, the iteration is cancelled.
    final class Handle: @unchecked Sendable {
        let iteration: AsyncIteration

        init(_ iteration: AsyncIteration) { self.iteration = iteration }

        deinit { iteration.cancel() }

        func next() async throws(Failure) -> Output? {
            let handover = await withTaskCancellationHandler {
                await withCheckedContinuation { iteration.wait($0) }
            } onCancel: {
                iteration.cancel()
            }
            return try handover.value.get()
        }
    }

    static func subscribe<P: Publisher>(to publisher: P) -> Handle where P.Output == Output, P.Failure == Failure {
        let iteration = AsyncIteration()
        publisher.subscribe(iteration)
        return Handle(iteration)
    }

    // MARK: The iterator's side

    private func wait(_ waiter: Waiter) {
        lock.lock()
        if let failure = failure.take() {
            lock.unlock()
            waiter.resume(returning: Handover(value: .failure(failure)))
            return
        }
        switch upstream {
        case .ended:
            lock.unlock()
            waiter.resume(returning: Handover(value: .success(nil)))
        case .awaitingSubscription:
            waiters.append(waiter)
            pending += 1
            lock.unlock()
        case .subscribed(let subscription):
            waiters.append(waiter)
            lock.unlock()
            subscription.request(.max(1))
        }
    }

    func cancel() {
        lock.lock()
        let previous = upstream
        let resumed = waiters
        if case .ended = previous {} else { upstream = .ended }
        waiters = []
        lock.unlock()
        if case .subscribed(let subscription) = previous { subscription.cancel() }
        for waiter in resumed { waiter.resume(returning: Handover(value: .success(nil))) }
    }

    // MARK: Upstream's side

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = upstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = .subscribed(subscription)
        let demand = pending
        pending = .none
        lock.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        switch upstream {
        case .ended:
            lock.unlock()
        case .awaitingSubscription:
            // As Apple's: a value before the subscription is not delivered, and the `next()`
            // calls waiting get `nil` (PublisherConcurrencyTests.testNonThrowingReceiveInputBeforeSubscription).
            let resumed = waiters
            waiters = []
            lock.unlock()
            for waiter in resumed { waiter.resume(returning: Handover(value: .success(nil))) }
        case .subscribed:
            guard !waiters.isEmpty else {
                lock.unlock()
                trap(
                    "API violation: values received while no next() was waiting for one (the demand was exhausted)")
            }
            let waiter = waiters.removeFirst()
            lock.unlock()
            waiter.resume(returning: Handover(value: .success(input)))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps upstream's subscription until the lock is released.
        let previous = upstream
        if case .ended = previous {
            lock.unlock()
            return
        }
        upstream = .ended
        var resumed = waiters
        waiters = []
        var thrown: (Waiter, Failure)?
        if case .failure(let error) = completion {
            if resumed.isEmpty {
                failure = error
            } else {
                thrown = (resumed.removeFirst(), error)
            }
        }
        lock.unlock()
        if let (waiter, error) = thrown { waiter.resume(returning: Handover(value: .failure(error))) }
        for waiter in resumed { waiter.resume(returning: Handover(value: .success(nil))) }
        withExtendedLifetime(previous) {}
    }
}
