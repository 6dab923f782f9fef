// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements: it pulls the next element only when its subscriber
    /// has demand, and a cancel cancels the task that iterates.
    @inlinable
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
        @inlinable
        public init(_ base: Base) { self.base = base }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: AsyncSequenceSubscription(base: base, downstream: subscriber))
        }
    }
}

/// The subscription of an async sequence's publisher: the demand, and the iterating task, which
/// waits on a continuation while there is none.
///
/// The subscriber is held as two closures made where it subscribes (`init` is inlined there), so
/// that the task runs code specialised for it.
@usableFromInline
final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable>: Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    @usableFromInline
    struct Downstream {
        @usableFromInline let receive: (Base.Element) -> Subscribers.Demand
        @usableFromInline let complete: (Subscribers.Completion<Base.Failure>) -> Void

        @inlinable
        init(
            receive: @escaping (Base.Element) -> Subscribers.Demand,
            complete: @escaping (Subscribers.Completion<Base.Failure>) -> Void
        ) {
            self.receive = receive
            self.complete = complete
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var demand = Subscribers.Demand.none
        @usableFromInline var task: Task<Void, Never>?
        /// The task, waiting for demand.
        @usableFromInline var waiting: UnsafeContinuation<Bool, Never>?

        @inlinable init(downstream: Downstream) { self.downstream = downstream }
    }

    @usableFromInline let base: Base
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init<S: Subscriber>(base: Base, downstream: S) where S.Input == Base.Element, S.Failure == Base.Failure {
        self.base = base
        state = State(
            downstream: Downstream(
                receive: { downstream.receive($0) }, complete: { downstream.receive(completion: $0) }))
    }

    @usableFromInline var description: String { "AsyncSequence" }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        lock.withLock {
            guard state.downstream != nil else { return }
            state.demand += demand
            if state.task == nil {
                state.task = Task { await self.iterate() }
            }
            state.waiting.take()?.resume(returning: true)
        }
    }

    @inlinable
    func cancel() {
        let (released, task) = lock.withLock { () -> (Downstream?, Task<Void, Never>?) in
            state.waiting.take()?.resume(returning: false)
            return (state.downstream.take(), state.task.take())
        }
        task?.cancel()
        withExtendedLifetime(released) {}
    }

    @inlinable
    func iterate() async {
        var iterator = base.makeAsyncIterator()
        while await demanded() {
            let element: Base.Element?
            do {
                element = try await iterator.next(isolation: nil)
            } catch {
                return finish(.failure(error))
            }
            guard let element else { return finish(.finished) }
            // Downstream is not held while an element is awaited; after a cancel it is gone.
            guard let downstream = lock.withLock({ state.downstream }) else { return }
            let more = downstream.receive(element)
            if more > 0 { lock.withLock { state.demand += more } }
        }
    }

    /// Takes one from the demand, waiting for a request if there is none; false once cancelled.
    @inlinable
    func demanded() async -> Bool {
        while true {
            let taken = lock.withLock { () -> Bool? in
                guard state.downstream != nil else { return false }
                guard state.demand > 0 else { return nil }
                state.demand -= 1
                return true
            }
            if let taken { return taken }
            let goOn = await withUnsafeContinuation { continuation in
                lock.withLock {
                    if state.downstream != nil, state.demand == 0 {
                        state.waiting = continuation
                    } else {
                        continuation.resume(returning: state.downstream != nil)
                    }
                }
            }
            guard goOn else { return false }
        }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Base.Failure>) {
        let downstream = lock.withLock { () -> Downstream? in
            state.task = nil
            return state.downstream.take()
        }
        downstream?.complete(completion)
    }
}
