// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Failure == Never {
    // On a fusable chain the whole stream runs here, inline, as one loop, as in `sink`: it has ended, and let
    // go of `object`, before this returns.
    /// Assigns each element from a publisher to a property on an object.
    @inlinable @inline(__always)
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        // A starved chain runs nothing here, and is subscribed below: it waits, holding `object`.
        if Self._isFusable && _Runtime.mayFuse
            && _forEach(
                {
                    object[keyPath: keyPath] = $0; return true
                }, { _ in })
        {
            return AnyCancellable()
        }
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(object: assign)
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

        @usableFromInline let lock = Lock()
        @exclusivity(unchecked)
        @usableFromInline var subscription: (any Subscription)?
        @exclusivity(unchecked)
        @usableFromInline var target: Root?
        @exclusivity(unchecked)
        @usableFromInline var isDone = false

        /// The object that contains the property to assign; `nil` once the subscription ends.
        public var object: Root? { lock.withLock { target } }
        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = object
            self.keyPath = keyPath
        }

        public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }

        public var customMirror: Mirror {
            let status = lock.withLock {
                isDone ? "terminal" : subscription.map { "subscribed(\($0))" } ?? "awaiting subscription"
            }
            return Mirror(self, children: [("object", object as Any), ("keyPath", keyPath), ("status", status)])
        }

        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard self.subscription == nil, !isDone else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            // As Combine's: a value that comes before the subscription is not assigned.
            let object = subscription == nil ? nil : target
            lock.unlock()
            object?[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            _ = release()
        }

        public func cancel() {
            release()?.cancel()
        }

        /// Ends the subscription: lets go of the object and hands back the upstream subscription.
        private func release() -> (any Subscription)? {
            lock.lock()
            isDone = true
            // Both are dropped after the lock: the object's deinit may complete this very
            // subscriber (a publisher the object owns finishing as it goes).
            let object = target
            let current = subscription
            target = nil
            subscription = nil
            lock.unlock()
            withExtendedLifetime(object) {}
            return current
        }
    }
}
