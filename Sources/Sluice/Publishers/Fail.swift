// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that immediately terminates with the specified error.
///
/// Each subscriber gets `Subscriptions.empty` and the failure at once, whatever its demand.
@frozen
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    @inlinable public init(error: Failure) { self.error = error }

    /// Creates a publisher that immediately terminates with the specified failure, naming the
    /// output type so that it need not be inferred.
    @inlinable public init(outputType: Output.Type, failure: Failure) { self.error = failure }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeFused(subscriber)
    }

    /// A cursor that is exhausted from the start: a chain over `Fail` fails as it is subscribed.
    @inlinable @inline(__always)
    public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
        _Runtime.OneValueCursor(.failure(error), name: "Empty")
    }
}

extension Fail: Equatable where Failure: Equatable {}
