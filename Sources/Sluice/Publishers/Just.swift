/// A publisher that emits an output to each subscriber just once, and then finishes.
@frozen
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    @inlinable public init(_ output: Output) { self.output = output }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        _subscribeFused(subscriber, name: "Just")
    }

    @inlinable public static var _isFusable: Bool { true }

    @inlinable @inline(__always)
    public func _makeCursor() -> _OneValueCursor<Output, Never> { _OneValueCursor(.success(output)) }
}

extension Just: Equatable where Output: Equatable {}

/// The cursor of the one-shot sources (`Just`, `Optional.Publisher`, `Result.Publisher`, `Fail`):
/// a value then `.finished`, or a completion straight away.
@frozen
public struct _OneValueCursor<Output, Failure: Error>: _FusedCursor {
    @usableFromInline var pending: Result<Output, Failure>?
    @usableFromInline var sent = false

    /// `.success` sends the value then finishes; `.failure` fails at once.
    @inlinable @inline(__always)
    public init(_ result: Result<Output, Failure>) { pending = result }

    /// A cursor that finishes at once.
    @inlinable @inline(__always)
    public init() { pending = nil }

    @inlinable @inline(__always)
    public mutating func next() -> _FusedStep<Output, Failure> {
        defer { pending = nil }
        switch pending {
        case .success(let value)?: return .value(value)
        case .failure(let error)?: return .failure(error)
        case nil: return .finished
        }
    }

    @inlinable public static var _yieldsAtMostOneValue: Bool { true }

    /// Exhausted when nothing or only a failure is left: `receive(subscriber:)` then completes at once.
    @inlinable public var isExhausted: Bool {
        if case .success? = pending { false } else { true }
    }
}
