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
    /// It holds the object strongly until the stream completes or is cancelled.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible {
        public typealias Failure = Never

        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminated
        }

        private let lock = Lock()
        private var state = State.awaitingSubscription
        private var target: Root?

        /// The object that contains the property to assign; `nil` once the subscription ends.
        public var object: Root? { lock.withLock { target } }
        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = object
            self.keyPath = keyPath
        }

        public var description: String { object.map { "Assign \(type(of: $0))." } ?? "Assign" }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = state, let target else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            target[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            lock.withLock {
                state = .terminated
                target = nil
            }
        }

        public func cancel() {
            lock.lock()
            let current = state
            state = .terminated
            target = nil
            lock.unlock()
            if case .subscribed(let subscription) = current {
                subscription.cancel()
            }
        }
    }
}
