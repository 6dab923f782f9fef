// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes the number of elements received from the upstream publisher, once it finishes.
    @inlinable
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}

extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream publisher.
    @frozen
    public struct Count<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Int
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that counts the elements of `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> { _Runtime.CountFold() }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension _Runtime {
    /// `count()`: one more per value; zero for an empty upstream.
    @frozen
    @usableFromInline struct CountFold<Input>: _Runtime.Fold {
        @usableFromInline var count = 0

        @inlinable init() {}

        @inlinable @inline(__always)
        mutating func fold(_ input: Input) -> Bool {
            count += 1
            return true
        }

        @inlinable mutating func result() -> Int? { count }
    }
}
