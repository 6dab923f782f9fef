/// A publisher that emits an output to each subscriber just once, and then finishes.
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    public init(_ output: Output) { self.output = output }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(output: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}

/// Delivers the value and `.finished` on the first request.
private final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private let lock = Lock()
    private var pending: (output: Downstream.Input, downstream: Downstream)?

    init(output: Downstream.Input, downstream: Downstream) { pending = (output, downstream) }

    var description: String { "Just" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard let (output, downstream) = pending else {
            lock.unlock()
            return
        }
        pending = nil
        lock.unlock()
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.withLock { pending = nil }
    }
}
