// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream
    /// publisher finishes.
    ///
    /// If the upstream publisher fails, the collected elements are dropped and the failure is passed
    /// on. The array waits for downstream demand; the memory it takes is unbounded.
    @inlinable
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that buffers items and emits them all as one array when the upstream finishes.
    @frozen
    public struct Collect<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of `upstream` into one array.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Combine's shows only how many values it holds.
        public static func _children(fold: Fold?, downstream: Any, status: String) -> [Mirror.Child] {
            [("count", (fold as? _Runtime.CollectFold<Upstream.Output>)?.elements.count ?? 0)]
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> { _Runtime.CollectFold() }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension _Runtime {
    /// `collect()`: appends every value; the array is the result, empty or not.
    @frozen
    @usableFromInline struct CollectFold<Element>: _Runtime.Fold {
        @usableFromInline var elements: [Element] = []

        @inlinable init() {}

        @inlinable @inline(__always)
        mutating func fold(_ input: Element) -> Bool {
            elements.append(input)
            return true
        }

        /// Hands the array over rather than copying it: the fold is finished with it.
        @inlinable
        mutating func result() -> [Element]? {
            defer { elements = [] }
            return elements
        }
    }
}
