// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that performs type erasure by wrapping another publisher.
///
/// As Combine's, it is one reference to the box that holds the publisher, and erasing an
/// `AnyPublisher` again gives the same box.
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
    private final class Box {
        let publisher: any Publisher<Output, Failure>

        init(_ publisher: any Publisher<Output, Failure>) { self.publisher = publisher }
    }

    private let box: Box

    /// Creates a type-erasing publisher to wrap the provided publisher.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        box = (publisher as? AnyPublisher<Output, Failure>)?.box ?? Box(publisher)
    }

    public var description: String { "AnyPublisher" }

    public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Not through `subscribe`: as in Combine, an `_Introspection` hook does not see this step.
        box.publisher.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}
