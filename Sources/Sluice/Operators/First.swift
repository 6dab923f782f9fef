// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// At the first element upstream is cancelled; the element waits for downstream demand. If
    /// upstream finishes empty, this publisher finishes without a value.
    @inlinable
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes
    /// normally.
    @inlinable
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy a throwing predicate closure, then
    /// finishes normally.
    ///
    /// If the predicate throws, upstream is cancelled and the stream fails with the thrown error.
    @inlinable
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    @frozen
    public struct First<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.first { _ in true }
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a predicate
    /// closure.
    @frozen
    public struct FirstWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the first element of `upstream` to satisfy `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Combine names this subscription "TryFirst".
        @inlinable public static var _name: String { "TryFirst" }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.first(where: predicate)
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a throwing
    /// predicate closure.
    @frozen
    public struct TryFirstWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the first element of `upstream` to satisfy
        /// `predicate`, and fails if the predicate throws.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.first(where: predicate)
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}
