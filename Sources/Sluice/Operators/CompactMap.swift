// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has a value.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }

    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes all non-`nil` results of calling a closure with each received element.
    ///
    /// A `nil` result is replaced by a request for one more value from upstream.
    @frozen
    public struct CompactMap<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = Upstream.Failure

        /// `upstream` and `transform`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) -> Output?)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// A closure that receives values from the upstream publisher and returns optional values.
        @inlinable public var transform: (Upstream.Output) -> Output? { parts().1 }

        /// Creates a publisher that republishes the non-`nil` results of `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            parts = { (upstream, transform) }
        }

        /// A stage running `transform` for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.CompactMapStage(transform: transform)
        }
    }

    /// A publisher that republishes all non-`nil` results of calling an error-throwing closure
    /// with each received element.
    @frozen
    public struct TryCompactMap<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = any Error

        /// `upstream` and `transform`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) throws -> Output?)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// An error-throwing closure that receives values from the upstream publisher and returns optional values.
        @inlinable public var transform: (Upstream.Output) throws -> Output? { parts().1 }

        /// Creates a publisher that republishes the non-`nil` results of an error-throwing `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            parts = { (upstream, transform) }
        }

        /// A stage running `transform` for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryCompactMapStage(transform: transform)
        }
    }
}

extension Publishers.CompactMap {
    /// Two `compactMap`s in a row compose into one.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// A `map` after a `compactMap` composes into one `CompactMap`.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.TryCompactMap {
    /// A `compactMap` after a `tryCompactMap` composes into one `TryCompactMap`; as in Combine,
    /// the second closure may throw too.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

extension _Runtime.StageStep {
    /// `compactMap`'s rule: a value goes on, `nil` is a skip (one more from upstream).
    @inlinable @inline(__always)
    init(valueOrSkip output: Output?) {
        if let output { self = .value(output) } else { self = .skip }
    }
}

extension _Runtime {
    /// `compactMap`'s stage.
    @frozen
    @usableFromInline struct CompactMapStage<Input, Output, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("CompactMap", passesSubscriptionThrough: true)
        }
        @usableFromInline let transform: (Input) -> Output?

        @inlinable @inline(__always) init(transform: @escaping (Input) -> Output?) { self.transform = transform }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure> {
            _Runtime.StageStep(valueOrSkip: transform(input))
        }
    }
}

extension _Runtime {
    /// `tryCompactMap`'s stage: as `compactMap`'s, and a throw fails the chain.
    @frozen
    @usableFromInline struct TryCompactMapStage<Input, Output, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("TryCompactMap", edges: .filtering)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream)]
        }
        @usableFromInline let transform: (Input) throws -> Output?

        @inlinable @inline(__always) init(transform: @escaping (Input) throws -> Output?) { self.transform = transform }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, any Error> {
            .catching { try _Runtime.StageStep(valueOrSkip: transform(input)) }
        }
    }
}
