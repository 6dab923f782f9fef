/// A publisher that performs type erasure by wrapping another publisher.
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible {
    private let box: any Publisher<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        box = (publisher as? AnyPublisher<Output, Failure>)?.box ?? publisher
    }

    public var description: String { "AnyPublisher" }
}

extension AnyPublisher: Publisher {
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}
