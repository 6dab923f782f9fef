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
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible {
        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminated
        }

        /// The closure to execute on receipt of a value.
        public let receiveValue: (Input) -> Void
        /// The closure to execute on completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        private let lock = Lock()
        private var state = State.awaitingSubscription

        /// Initializes a sink with the provided closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        public var description: String { "Sink" }

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
            guard case .subscribed = state else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            receiveValue(value)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .subscribed = state else {
                lock.unlock()
                return
            }
            state = .terminated
            lock.unlock()
            receiveCompletion(completion)
        }

        public func cancel() {
            lock.lock()
            let current = state
            state = .terminated
            lock.unlock()
            if case .subscribed(let subscription) = current {
                subscription.cancel()
            }
        }
    }
}
