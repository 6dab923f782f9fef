// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Optional {
    /// A publisher that publishes this optional's value, if any, to each subscriber exactly once.
    public var publisher: Optional<Wrapped>.Publisher { Publisher(self) }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value.
    ///
    /// With a value, it waits for the first request, sends the value and finishes. With `nil`, it
    /// finishes as soon as a subscriber attaches.
    public struct Publisher: SluiceReference.Publisher {
        public typealias Output = Wrapped
        public typealias Failure = Never

        /// The output to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if it is `nil`.
        public init(_ output: Output?) { self.output = output }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            subscriber.receivePlayback(of: output.map { [$0] } ?? [], then: .finished, name: "Optional")
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
