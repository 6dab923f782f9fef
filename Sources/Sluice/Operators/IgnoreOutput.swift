extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    ///
    /// As in Combine, it asks upstream for `.unlimited` once downstream has the subscription, and
    /// still passes downstream's requests and cancel on to upstream while the stream is live. No
    /// value is ever sent, so the completion needs no demand.
    @frozen
    public struct IgnoreOutput<Upstream: Publisher>: _FoldOperator {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that passes on only the completion of `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable public static var _name: StaticString { "IgnoreOutput" }

        @inlinable public static var _forwardsDemand: Bool { true }

        @inlinable public func _makeFold() -> _IgnoreFold<Upstream.Output> { _IgnoreFold() }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

/// `ignoreOutput()`: a fold that never has anything to publish.
@frozen
public struct _IgnoreFold<Input>: _Fold {
    @inlinable init() {}

    @inlinable @inline(__always)
    public mutating func fold(_ input: Input) -> Bool { true }

    @inlinable public mutating func result() -> Never? { nil }
}
