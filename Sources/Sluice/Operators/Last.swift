// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// If upstream finishes empty, this publisher finishes without a value.
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last element of a stream that satisfies a predicate closure, after upstream
    /// finishes.
    @inlinable
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream that satisfies an error-throwing predicate closure,
    /// after the stream finishes.
    ///
    /// If the predicate throws, upstream is cancelled and the stream fails with the thrown error.
    @inlinable
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that waits until after the stream finishes, and then publishes the last
    /// element of the stream.
    @frozen
    public struct Last<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.last { _ in true }
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element
    /// of the stream that satisfies a predicate closure.
    @frozen
    public struct LastWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the last element of `upstream` to satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.last(where: predicate)
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element
    /// of the stream that satisfies an error-throwing predicate closure.
    @frozen
    public struct TryLastWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the last element of `upstream` to satisfy
        /// `predicate`, and fails if the predicate throws.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.last(where: predicate)
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
