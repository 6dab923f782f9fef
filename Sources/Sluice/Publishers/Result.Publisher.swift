// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Result {
    /// A publisher that publishes this result to each subscriber exactly once, or fails immediately
    /// if it is a failure.
    @inlinable public var publisher: Result<Success, Failure>.Publisher { Publisher(self) }

    /// A publisher that publishes a result to each subscriber exactly once, or fails immediately if
    /// the result is a failure.
    ///
    /// A success waits for the first request, then sends the value and finishes; a failure is sent
    /// as soon as a subscriber attaches, whatever its demand.
    @frozen
    public struct Publisher: Sluice.Publisher {
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher that delivers the specified result.
        @inlinable public init(_ result: Result<Output, Failure>) { self.result = result }

        /// Creates a publisher that sends the specified output to each subscriber once, then finishes.
        @inlinable public init(_ output: Output) { self.result = .success(output) }

        /// Creates a publisher that immediately sends the specified failure to each subscriber.
        @inlinable public init(_ failure: Failure) { self.result = .failure(failure) }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeFused(subscriber)
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
            _Runtime.OneValueCursor(result, name: "Once")
        }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
