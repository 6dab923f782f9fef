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

    @usableFromInline let publisher: P

    /// Creates an asynchronous sequence of the elements of `publisher`.
    @inlinable
    public init(_ publisher: P) { self.publisher = publisher }

    /// The iterator: each `next()` asks the publisher for one element and waits for it.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of the elements: the publisher's output.
        public typealias Element = P.Output

        @usableFromInline let owner: AsyncIterationOwner<P.Output, Never>

        @usableFromInline init(owner: AsyncIterationOwner<P.Output, Never>) { self.owner = owner }

        /// The next element, or `nil` once the publisher has finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            await owner.next()
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(owner: AsyncIterationOwner(subscribingTo: publisher)) }
}

/// A publisher as an `AsyncSequence` whose iteration throws the publisher's failure.
///
/// As `AsyncPublisher`, and: the failure is thrown by the `next()` that meets it (a failure that
/// comes while no `next()` waits is kept for the next one); every `next()` after that returns `nil`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output

    @usableFromInline let publisher: P

    /// Creates an asynchronous throwing sequence of the elements of `publisher`.
    @inlinable
    public init(_ publisher: P) { self.publisher = publisher }

    /// The iterator: each `next()` asks the publisher for one element and waits for it.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of the elements: the publisher's output.
        public typealias Element = P.Output

        @usableFromInline let owner: AsyncIterationOwner<P.Output, P.Failure>

        @usableFromInline init(owner: AsyncIterationOwner<P.Output, P.Failure>) { self.owner = owner }

        /// The next element, or `nil` once the publisher has finished or the task was cancelled.
        public mutating func next() async throws -> P.Output? {
            try await owner.next()
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(owner: AsyncIterationOwner(subscribingTo: publisher)) }
}

/// One crossing from the thread a publisher sends on to the task that awaits: Combine's elements
/// and failures need not be `Sendable`, and the sender keeps nothing of what it hands over.
@usableFromInline
struct Handover<Value>: @unchecked Sendable {
    @usableFromInline let value: Value

    @inlinable init(_ value: Value) { self.value = value }
}

/// What an iterator holds (all its copies share it): letting go of it cancels the iteration.
@usableFromInline
final class AsyncIterationOwner<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let iteration: AsyncIteration<Output, Failure>

    @usableFromInline
    init<P: Publisher>(subscribingTo publisher: P) where P.Output == Output, P.Failure == Failure {
        iteration = AsyncIteration()
        publisher.subscribe(iteration)
    }

    deinit { iteration.cancel() }

    @usableFromInline
    func next() async throws(Failure) -> Output? {
        let iteration = iteration
        let handover = await withTaskCancellationHandler {
            // Unsafe, not checked: a checked continuation allocates its misuse canary on every
            // `next()`, and each waiter here is taken out under the lock and resumed exactly once.
            await withUnsafeContinuation { iteration.wait($0) }
        } onCancel: {
            iteration.cancel()
        }
        return try handover.value.get()
    }
}

/// The subscriber behind both iterators. Waiting `next()` calls queue up, each with one element
/// of demand; values go to them in order. One lock, never held while resuming a task or calling
/// upstream.
@usableFromInline
final class AsyncIteration<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    @usableFromInline typealias Waiter = UnsafeContinuation<Handover<Result<Output?, Failure>>, Never>

    @usableFromInline enum Phase {
        /// Demand from `next()` calls that came first waits in `early`.
        case awaiting(early: Int)
        case live(any Subscription)
        /// Completed or cancelled; `failure` is for the next `next()` if none waited for it.
        case over(failure: Failure?)
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var phase = Phase.awaiting(early: 0)
    @exclusivity(unchecked) @usableFromInline var waiters: [Waiter] = []

    @usableFromInline init() {}

    @usableFromInline
    func wait(_ waiter: Waiter) {
        lock.lock()
        switch phase {
        case .awaiting(let early):
            phase = .awaiting(early: early + 1)
            waiters.append(waiter)
            lock.unlock()
        case .live(let subscription):
            waiters.append(waiter)
            lock.unlock()
            subscription.request(.max(1))
        case .over(let failure):
            phase = .over(failure: nil)
            lock.unlock()
            waiter.resume(returning: Handover(failure.map { .failure($0) } ?? .success(nil)))
        }
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let previous = phase
        if case .over = previous {} else { phase = .over(failure: nil) }
        let waiting = takeWaiters()
        lock.unlock()
        if case .live(let subscription) = previous { subscription.cancel() }
        Self.end(waiting)
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaiting(let early) = phase else {
            lock.unlock()
            return subscription.cancel()
        }
        phase = .live(subscription)
        lock.unlock()
        if early > 0 { subscription.request(.max(early)) }
    }

    @usableFromInline
    func receive(_ input: Output) -> Subscribers.Demand {
        lock.lock()
        switch phase {
        case .over:
            lock.unlock()
        case .awaiting:
            // As Apple's, a value before the subscription is not delivered and the waiting
            // `next()` calls get `nil` (PublisherConcurrencyTests.testNonThrowingReceiveInputBeforeSubscription).
            let waiting = takeWaiters()
            lock.unlock()
            Self.end(waiting)
        case .live:
            guard !waiters.isEmpty else {
                lock.unlock()
                trap(
                    "API violation: values received while no next() was waiting for one (the demand was exhausted)")
            }
            // Emptied keeping its buffer: one `next()` at a time is the common case, and it should
            // not allocate the array anew for each element.
            let waiter: Waiter
            if waiters.count == 1 {
                waiter = waiters[0]
                waiters.removeAll(keepingCapacity: true)
            } else {
                waiter = waiters.removeFirst()
            }
            lock.unlock()
            waiter.resume(returning: Handover(.success(input)))
        }
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        let previous = phase
        if case .over = previous { return lock.unlock() }
        var waiting = takeWaiters()
        var failure: Failure?
        if case .failure(let error) = completion { failure = error }
        // The failure goes to the first `next()` waiting, or is kept for the next one.
        let thrower = failure == nil || waiting.isEmpty ? nil : waiting.removeFirst()
        phase = .over(failure: thrower == nil ? failure : nil)
        lock.unlock()
        if let thrower, let failure { thrower.resume(returning: Handover(.failure(failure))) }
        Self.end(waiting)
        _ = previous  // upstream's subscription, let go of outside the lock
    }

    /// Called with the lock held.
    @usableFromInline
    func takeWaiters() -> [Waiter] {
        defer { waiters = [] }
        return waiters
    }

    @usableFromInline
    static func end(_ waiting: [Waiter]) {
        for waiter in waiting { waiter.resume(returning: Handover(.success(nil))) }
    }
}
