// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Optional {
    /// A publisher that publishes this optional's value, if any, to each subscriber exactly once.
    @inlinable public var publisher: Optional<Wrapped>.Publisher { Publisher(self) }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value.
    ///
    /// With a value, it waits for the first request, sends the value and finishes. With `nil`, it
    /// finishes as soon as a subscriber attaches.
    @frozen
    public struct Publisher: Sluice.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The output to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if it is `nil`.
        @inlinable public init(_ output: Output?) { self.output = output }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            subscribeFused(subscriber)
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
            if let output {
                _Runtime.OneValueCursor<Wrapped, Never>(.success(output), name: "Optional")
            } else {
                _Runtime.OneValueCursor<Wrapped, Never>(name: "Optional")
            }
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
