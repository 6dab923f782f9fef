// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// Nothing is emitted until the upstream finishes; an upstream failure is passed on without a
    /// value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Applies an error-throwing closure that collects each element of a stream and publishes a
    /// final result upon completion.
    ///
    /// If the closure throws, upstream is cancelled and the stream fails with the thrown error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated
    /// value when the upstream publisher finishes.
    @frozen
    public struct Reduce<Upstream: Publisher, Output>: _Runtime.FoldOperator {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// A closure that takes the previously-accumulated value and the next element from the
        /// upstream publisher to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that folds `upstream` into one value, starting from `initial`.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.ReduceFold(initial: initial, nextPartialResult: nextPartialResult)
        }
    }

    /// A publisher that applies an error-throwing closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    @frozen
    public struct TryReduce<Upstream: Publisher, Output>: _Runtime.FoldOperator {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// An error-throwing closure that takes the previously-accumulated value and the next
        /// element from the upstream to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that folds `upstream` into one value, starting from `initial`, and
        /// fails if the closure throws.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.ReduceFold(initial: initial, nextPartialResult: nextPartialResult)
        }
    }
}

extension _Runtime {
    /// `reduce` and `tryReduce`: the running value, replaced by the closure at each element.
    @frozen
    @usableFromInline struct ReduceFold<Input, Value>: _Runtime.Fold {
        @usableFromInline var value: Value
        @usableFromInline let nextPartialResult: (Value, Input) throws -> Value

        @inlinable
        init(initial: Value, nextPartialResult: @escaping (Value, Input) throws -> Value) {
            value = initial
            self.nextPartialResult = nextPartialResult
        }

        @inlinable @inline(__always)
        mutating func fold(_ input: Input) throws -> Bool {
            value = try nextPartialResult(value, input)
            return true
        }

        @inlinable mutating func result() -> Value? { value }
    }
}
