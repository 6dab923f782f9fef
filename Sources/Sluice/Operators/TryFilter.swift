// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    ///
    /// A value that does not match is replaced by a request for one more from upstream.
    @frozen
    public struct TryFilter<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// `upstream` and `isIncluded`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) throws -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// An error-throwing closure that indicates whether to republish an element.
        @inlinable public var isIncluded: (Upstream.Output) throws -> Bool { parts().1 }

        /// Creates a publisher that republishes the elements `isIncluded` accepts.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            parts = { (upstream, isIncluded) }
        }

        /// A stage running `isIncluded` for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryFilterStage(isIncluded: isIncluded)
        }
    }
}

extension Publishers.Filter {
    /// A `filter` followed by a `tryFilter` composes into one `TryFilter`; the second closure
    /// runs only for values the first one lets through.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// A `filter` after a `tryFilter` composes into one `TryFilter`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Two `tryFilter`s in a row compose into one; the second closure runs only for values the
    /// first one lets through.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension _Runtime {
    /// `tryFilter`'s stage: a rejected value is a skip; a throw fails the chain.
    @frozen
    @usableFromInline struct TryFilterStage<Value, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription { .init("TryFilter", edges: .filtering) }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream)]
        }
        @usableFromInline let isIncluded: (Value) throws -> Bool

        @inlinable @inline(__always) init(isIncluded: @escaping (Value) throws -> Bool) { self.isIncluded = isIncluded }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, any Error> {
            .catching { try isIncluded(input) ? .value(input) : .skip }
        }
    }
}
