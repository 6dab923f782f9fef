// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// predicate.
    ///
    /// At the first element that fails the predicate, upstream is cancelled and `false` is
    /// published; otherwise `true` is published when upstream finishes.
    @inlinable
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a given
    /// error-throwing predicate.
    ///
    /// If the predicate throws, upstream is cancelled and the stream fails with the thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given predicate.
    @frozen
    public struct AllSatisfy<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether every element of `upstream` passes `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.allSatisfy(predicate)
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given error-throwing predicate.
    @frozen
    public struct TryAllSatisfy<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether every element of `upstream` passes `predicate`,
        /// and fails if the predicate throws.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.allSatisfy(predicate)
        }
    }
}
