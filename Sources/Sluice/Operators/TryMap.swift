// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    @frozen
    public struct TryMap<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = any Error

        /// `upstream` and `transform`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) throws -> Output)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The error-throwing closure that transforms elements from the upstream publisher.
        @inlinable public var transform: (Upstream.Output) throws -> Output { parts().1 }

        /// Creates a publisher that transforms upstream elements with an error-throwing closure.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            parts = { (upstream, transform) }
        }

        /// A stage running `transform` for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryMapStage(transform: transform)
        }
    }
}

extension Publishers.Map {
    /// A `map` followed by a `tryMap` composes into one `TryMap`.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// A `map` after a `tryMap` composes into one `TryMap`.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Two `tryMap`s in a row compose into one.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

extension _Runtime {
    /// `tryMap`'s stage: a value goes through the closure; a throw fails the chain.
    @frozen
    @usableFromInline struct TryMapStage<Input, Output, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription { .init("TryMap", edges: .transforming) }
        @usableFromInline let transform: (Input) throws -> Output

        @inlinable @inline(__always) init(transform: @escaping (Input) throws -> Output) { self.transform = transform }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, any Error> {
            .catching { .value(try transform(input)) }
        }
    }
}
