// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided closure.
    @frozen
    public struct Map<Upstream: Publisher, Output>: _Runtime.StageOperator {
        public typealias Failure = Upstream.Failure

        /// `upstream` and `transform`, kept by one closure: the publisher is two words however long
        /// the chain under it (see `_forEach`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) -> Output)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The closure that transforms elements from the upstream publisher.
        @inlinable public var transform: (Upstream.Output) -> Output { parts().1 }

        /// Creates a publisher that transforms the elements of `upstream` with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            parts = { (upstream, transform) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.MapStage(transform: transform)
        }

        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            let (upstream, transform) = parts()
            return upstream._forEach({ receiveValue(transform($0)) }, receiveCompletion)
        }
    }
}

extension Publishers.Map {
    /// Two maps in a row compose into one.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
}

extension _Runtime {
    @frozen
    @usableFromInline struct MapStage<Input, Output, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("Map", passesSubscriptionThrough: true)
        }
        @usableFromInline let transform: (Input) -> Output

        @inlinable @inline(__always) init(transform: @escaping (Input) -> Output) { self.transform = transform }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure> { .value(transform(input)) }
    }
}
