// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    ///
    /// Values, `.finished` and demand pass through untouched.
    @frozen
    public struct MapError<Upstream: Publisher, Failure: Error>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output

        /// `upstream` and `transform`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Failure) -> Failure)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The closure that converts the upstream failure into a new error.
        @inlinable public var transform: (Upstream.Failure) -> Failure { parts().1 }

        /// Creates a publisher that converts the upstream failure with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            parts = { (upstream, transform) }
        }

        /// The same as `init(upstream:transform:)`, with an unlabelled closure, as Combine also offers.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        /// A stage that converts the failure.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.MapErrorStage(transform: transform)
        }
    }
}

extension _Runtime {
    /// `mapError`'s stage: every value goes through; only a failure is converted.
    @frozen
    @usableFromInline struct MapErrorStage<Value, UpstreamFailure: Error, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("MapError", passesSubscriptionThrough: true)
        }
        @usableFromInline let transform: (UpstreamFailure) -> Failure

        @inlinable @inline(__always) init(transform: @escaping (UpstreamFailure) -> Failure) {
            self.transform = transform
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> { .value(input) }

        @inlinable @inline(__always)
        func mapFailure(_ error: UpstreamFailure) -> Failure { transform(error) }
    }
}
