// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluiceReference

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements: it pulls the next element only when its subscriber
    /// has demand, and a cancel cancels the task that iterates.
    public var publisher: Publishers.AsyncSequence<Self> { Publishers.AsyncSequence(self) }
}

extension Publishers {
    /// A publisher of an async sequence's elements, pulled as demand allows.
    ///
    /// Each subscriber gets its own iteration, in a task started at its first request. The task
    /// asks the sequence for the next element only while the subscriber's demand is above zero,
    /// and otherwise waits for a request. The sequence ending finishes the stream, and its error
    /// fails it. A cancel cancels the task, and nothing is delivered after it.
    public struct AsyncSequence<Base: _Concurrency.AsyncSequence & Sendable>: Publisher {
        public typealias Output = Base.Element
        public typealias Failure = Base.Failure

        /// The sequence whose elements are published.
        public let base: Base

        /// Creates a publisher of `base`'s elements.
        public init(_ base: Base) { self.base = base }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: AsyncSequenceSubscription(base: base, downstream: AnySubscriber(subscriber)))
        }
    }
}

/// The subscription of an async sequence's publisher, under one lock: the subscriber until the
/// end, its demand, the iterating task, and the task's continuation while it waits for demand.
private final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    private let base: Base
    private let lock = Lock()
    private var downstream: AnySubscriber<Base.Element, Base.Failure>?
    private var demand = Subscribers.Demand.none
    private var task: Task<Void, Never>?
    private var waitingForDemand: CheckedContinuation<Void, Never>?

    init(base: Base, downstream: AnySubscriber<Base.Element, Base.Failure>) {
        self.base = base
        self.downstream = downstream
    }

    var description: String { "AsyncSequence" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.withLock {
            guard downstream != nil else { return }
            self.demand += demand
            if task == nil { task = Task { await self.run() } }
            waitingForDemand.take()?.resume()
        }
    }

    func cancel() {
        let (released, cancelled) = lock.withLock {
            () -> (AnySubscriber<Base.Element, Base.Failure>?, Task<Void, Never>?) in
            waitingForDemand.take()?.resume()
            return (downstream.take(), task.take())
        }
        cancelled?.cancel()
        withExtendedLifetime(released) {}
    }

    private func run() async {
        var iterator = base.makeAsyncIterator()
        while true {
            guard await waitForDemand() else { return }
            let element: Base.Element?
            do {
                element = try await iterator.next(isolation: nil)
            } catch {
                complete(.failure(error))
                return
            }
            guard let element else {
                complete(.finished)
                return
            }
            guard let target = lock.withLock({ downstream }) else { return }
            let more = target.receive(element)
            if more > 0 { lock.withLock { demand += more } }
        }
    }

    /// Waits until there is demand and takes one from it. False when the subscriber has cancelled.
    private func waitForDemand() async -> Bool {
        while true {
            let ready = lock.withLock { () -> Bool? in
                if downstream == nil { return false }
                if demand == .none { return nil }
                demand -= 1
                return true
            }
            if let ready { return ready }
            await withCheckedContinuation { continuation in
                lock.withLock {
                    if downstream != nil, demand == .none {
                        waitingForDemand = continuation
                    } else {
                        continuation.resume()
                    }
                }
            }
        }
    }

    private func complete(_ completion: Subscribers.Completion<Base.Failure>) {
        let target = lock.withLock { () -> AnySubscriber<Base.Element, Base.Failure>? in
            task = nil
            return downstream.take()
        }
        target?.receive(completion: completion)
    }
}
