// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(assign)
    }
}

extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It holds the object strongly until the stream completes or is cancelled, and lets go of it
    /// (and of the subscription) then.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        public typealias Failure = Never

        private enum State {
            case awaitingSubscription(Root)
            case subscribed(Root, any Subscription)
            case terminated
        }

        private let lock = Lock()
        private var state: State

        /// The object that contains the property to assign; `nil` once the subscription ends.
        public var object: Root? {
            lock.withLock {
                switch state {
                case .awaitingSubscription(let object), .subscribed(let object, _): object
                case .terminated: nil
                }
            }
        }
        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            state = .awaitingSubscription(object)
            self.keyPath = keyPath
        }

        public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }

        public var customMirror: Mirror {
            let status = lock.withLock {
                switch state {
                case .awaitingSubscription: "awaiting subscription"
                case .subscribed(_, let subscription): "subscribed(\(subscription))"
                case .terminated: "terminal"
                }
            }
            return Mirror(self, children: [("object", object as Any), ("keyPath", keyPath), ("status", status)])
        }

        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription(let object) = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(object, subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed(let object, _) = state else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            object[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            // Dropped here, after the lock: the object and the subscription.
            let previous = lock.withLock { exchange(&state, with: .terminated) }
            withExtendedLifetime(previous) {}
        }

        public func cancel() {
            let previous = lock.withLock { exchange(&state, with: .terminated) }
            if case .subscribed(_, let subscription) = previous {
                subscription.cancel()
            }
        }
    }
}
