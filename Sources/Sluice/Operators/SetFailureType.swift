// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    ///
    /// Only a publisher that cannot fail can be given a failure type: nothing is ever converted.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that appears to send a specified failure type, but never fails.
    @frozen
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: _Runtime.StageOperator
    where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that declares `Failure` over an upstream that cannot fail.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// A stage that only retypes the (impossible) failure.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.SetFailureTypeStage()
        }
    }
}

extension Publishers.SetFailureType {
    /// Setting the failure type again replaces the first one: one `SetFailureType` remains.
    @inlinable
    public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
        Publishers.SetFailureType<Upstream, E>(upstream: upstream)
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension _Runtime {
    /// `setFailureType`'s stage: values go through, and there is no failure to convert.
    @frozen
    @usableFromInline struct SetFailureTypeStage<Value, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("SetFailureType", passesSubscriptionThrough: true)
        }

        @inlinable @inline(__always) init() {}

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> { .value(input) }

        @inlinable @inline(__always)
        func mapFailure(_ error: Never) -> Failure {}
    }
}
