// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    ///
    /// At the first equal element, upstream is cancelled and `true` is published; if upstream
    /// finishes first, `false` is published.
    @inlinable
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
    @inlinable
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
    /// closure.
    ///
    /// If the predicate throws, upstream is cancelled and the stream fails with the thrown error.
    @inlinable
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specific element from its
    /// upstream publisher.
    @frozen
    public struct Contains<Upstream: Publisher>: _Runtime.FoldOperator where Upstream.Output: Equatable {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that tells whether `upstream` publishes `output`.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            let output = output
            return _Runtime.SearchFold.contains { $0 == output }
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// predicate closure.
    @frozen
    public struct ContainsWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Bool
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether the publisher should consider an element as a match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether an element of `upstream` satisfies `predicate`.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.contains(where: predicate)
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the throwing
    /// predicate closure.
    @frozen
    public struct TryContainsWhere<Upstream: Publisher>: _Runtime.FoldOperator {
        public typealias Output = Bool
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether this publisher should emit a `true`
        /// element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether an element of `upstream` satisfies `predicate`,
        /// and fails if the predicate throws.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable
        public func _makeFold() -> some _Runtime.Fold<Upstream.Output, Output> {
            _Runtime.SearchFold.contains(where: predicate)
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}
