// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to a
    /// closure along with the last value returned by the closure, and publishes each result.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Transforms elements from the upstream publisher by providing the current element to an
    /// error-throwing closure along with the last value returned by the closure, and publishes
    /// each result.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that publishes every intermediate result of accumulating the upstream elements.
    ///
    /// Each subscription accumulates from `initialResult` afresh.
    @frozen
    public struct Scan<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = Upstream.Failure

        /// `upstream`, `initialResult` and `nextPartialResult`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, Output, (Output, Upstream.Output) -> Output)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The previous result returned by the closure, before the first element arrives.
        @inlinable public var initialResult: Output { parts().1 }
        /// A closure that takes the previous result and the next element, and returns the next result.
        @inlinable public var nextPartialResult: (Output, Upstream.Output) -> Output { parts().2 }

        /// Creates a publisher that accumulates upstream elements from `initialResult`.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            parts = { (upstream, initialResult, nextPartialResult) }
        }

        /// A stage holding one subscription's running result.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.ScanStage(result: initialResult, nextPartialResult: nextPartialResult)
        }
    }

    /// A publisher that publishes every intermediate result of accumulating the upstream
    /// elements with an error-throwing closure.
    ///
    /// Each subscription accumulates from `initialResult` afresh.
    @frozen
    public struct TryScan<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = any Error

        /// `upstream`, `initialResult` and `nextPartialResult`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, Output, (Output, Upstream.Output) throws -> Output)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The previous result returned by the closure, before the first element arrives.
        @inlinable public var initialResult: Output { parts().1 }
        /// An error-throwing closure that takes the previous result and the next element, and
        /// returns the next result.
        @inlinable public var nextPartialResult: (Output, Upstream.Output) throws -> Output { parts().2 }

        /// Creates a publisher that accumulates upstream elements from `initialResult` with an
        /// error-throwing closure.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            parts = { (upstream, initialResult, nextPartialResult) }
        }

        /// A stage holding one subscription's running result.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryScanStage(result: initialResult, nextPartialResult: nextPartialResult)
        }
    }
}

extension _Runtime {
    /// `scan`'s stage. The running result lives in the stage, so it needs no lock: only the serial
    /// value path touches it, and each subscription has its own stage.
    @frozen
    @usableFromInline struct ScanStage<Input, Output, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("Scan", passesSubscriptionThrough: true)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("result", result)]
        }
        @usableFromInline var result: Output
        @usableFromInline let nextPartialResult: (Output, Input) -> Output

        @inlinable @inline(__always)
        init(result: Output, nextPartialResult: @escaping (Output, Input) -> Output) {
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure> {
            result = nextPartialResult(result, input)
            return .value(result)
        }
    }
}

extension _Runtime {
    /// `tryScan`'s stage: as `scan`'s, and a throw fails the chain (leaving the result as it was).
    @frozen
    @usableFromInline struct TryScanStage<Input, Output, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription { .init("TryScan", edges: .transforming) }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("status", status), ("result", result)]
        }
        @usableFromInline var result: Output
        @usableFromInline let nextPartialResult: (Output, Input) throws -> Output

        @inlinable @inline(__always)
        init(result: Output, nextPartialResult: @escaping (Output, Input) throws -> Output) {
            self.result = result
            self.nextPartialResult = nextPartialResult
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, any Error> {
            .catching {
                result = try nextPartialResult(result, input)
                return .value(result)
            }
        }
    }
}
