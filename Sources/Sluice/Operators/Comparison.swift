// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, after it finishes, using
    /// the provided ordering closure.
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        // The fold keeps the greatest value of its ordering; the minimum is the greatest of the
        // reversed ordering, and Combine stores that reversed closure.
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes, using
    /// the provided ordering closure.
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    @inlinable
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    @inlinable
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item.
    ///
    /// In practice it publishes, when upstream finishes, the greatest element under
    /// `areInIncreasingOrder` (the first of equals); `min` reverses the ordering.
    @frozen
    public struct Comparison<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` under the ordering.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.ComparisonFold(areInIncreasingOrder: areInIncreasingOrder)
        }
    }

    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item, and fails if the ordering logic
    /// throws an error.
    @frozen
    public struct TryComparison<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the greatest element of `upstream` under the ordering,
        /// and fails if the ordering throws.
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.ComparisonFold(areInIncreasingOrder: areInIncreasingOrder)
        }
    }
}

extension _Runtime {
    /// `min`/`max` and their `try` forms: the greatest value so far. A new value replaces it only when
    /// `areInIncreasingOrder(current, new)` holds, so the first of equal values stays, and a single
    /// value needs no comparison.
    @frozen
    @usableFromInline struct ComparisonFold<Value>: _Runtime.Fold {
        @usableFromInline var greatest: Value?
        @usableFromInline let areInIncreasingOrder: (Value, Value) throws -> Bool

        @inlinable
        init(areInIncreasingOrder: @escaping (Value, Value) throws -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        @inlinable @inline(__always)
        mutating func fold(_ input: Value) throws -> Bool {
            if let current = greatest, try !areInIncreasingOrder(current, input) { return true }
            greatest = input
            return true
        }

        @inlinable mutating func result() -> Value? { greatest }
    }
}
