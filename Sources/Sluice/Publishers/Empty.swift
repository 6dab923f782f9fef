/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// Each subscriber gets `Subscriptions.empty`, then `.finished` at once whatever its demand, or, with
/// `completeImmediately: false`, nothing more, ever.
///
/// `Empty` is not fused: whether it ever completes is a stored value, while fusion is decided from
/// static types, and a fused chain has no way to wait forever. Nothing is lost: it sends no value,
/// so a chain over it runs no closure per element, and operators that care (`flatMap`,
/// `switchToLatest`) recognise it by type.
@frozen
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether the publisher finishes as soon as a subscriber attaches, or never completes.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types so that they need not be inferred.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // `Subscriptions.empty` ignores `cancel()`: as in Combine, a cancel from inside
        // `receive(subscription:)` does not stop the completion.
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately { subscriber.receive(completion: .finished) }
    }
}
