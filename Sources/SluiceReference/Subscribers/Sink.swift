// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour; it requests an unlimited number of values.
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// As Combine's, it delivers what arrives until it has completed or been cancelled (also before a
    /// subscription arrives); a cancel before any subscription does nothing. It lets go of its closures and
    /// of the subscription when the stream completes and when it is cancelled, so that whatever the closures
    /// capture is freed then, even while the caller still holds the sink (or its `AnyCancellable`).
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        private struct Closures {
            let receiveValue: (Input) -> Void
            let receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        }

        private enum State {
            case awaitingSubscription(Closures)
            case subscribed(Closures, any Subscription)
            case terminated
        }

        private let lock = Lock()
        private var state: State

        /// The closure to execute on receipt of a value; one that does nothing once the stream has ended.
        public var receiveValue: (Input) -> Void { closures?.receiveValue ?? { _ in } }
        /// The closure to execute on completion; one that does nothing once the stream has ended.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            closures?.receiveCompletion ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            state = .awaitingSubscription(Closures(receiveValue: receiveValue, receiveCompletion: receiveCompletion))
        }

        public var description: String { "Sink" }

        public var customMirror: Mirror { Mirror(self, children: [:]) }

        public var playgroundDescription: Any { description }

        private var closures: Closures? {
            lock.withLock {
                switch state {
                case .awaitingSubscription(let closures), .subscribed(let closures, _): closures
                case .terminated: nil
                }
            }
        }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription(let closures) = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(closures, subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Tells the subscriber that the publisher has produced an element.
        ///
        /// As Combine's sink, it takes a value even before its subscription: only the end of the stream stops values.
        public func receive(_ value: Input) -> Subscribers.Demand {
            closures?.receiveValue(value)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            // `previous` keeps the closures and the subscription until the lock is released.
            let previous = state
            let closures: Closures
            switch previous {
            case .awaitingSubscription(let live), .subscribed(let live, _): closures = live
            case .terminated:
                lock.unlock()
                return
            }
            state = .terminated
            lock.unlock()
            closures.receiveCompletion(completion)
        }

        public func cancel() {
            lock.lock()
            // `previous` keeps the closures and the subscription until the lock is released.
            let previous = state
            // Combine's sink ignores a cancel before its subscription (and keeps its closures).
            guard case .subscribed(_, let subscription) = previous else {
                lock.unlock()
                return
            }
            state = .terminated
            lock.unlock()
            subscription.cancel()
        }
    }
}
