// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

extension AnyPublisher {
    /// A publisher over a callback-based source: for each subscriber, `factory` starts the source,
    /// hands it a `Publishers.Create.Subscriber` to send values and a completion into, and returns
    /// what stops the source.
    ///
    /// What the source sends is kept until the subscriber asks for it, in order, so a source that
    /// knows nothing of demand loses nothing; the completion follows the values. The cancellable
    /// `factory` returns is cancelled, once, when the stream ends: at the completion's delivery or
    /// at the subscriber's cancel.
    @inlinable
    public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
        self = Publishers.Create(factory: factory).eraseToAnyPublisher()
    }

    /// A publisher over a callback-based source; see `init(_:)`.
    @inlinable
    public static func create(
        _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(factory)
    }
}

extension Publishers {
    /// A publisher that starts a callback-based source for each subscriber; see
    /// `AnyPublisher.create(_:)`.
    public struct Create<Output, Failure: Error>: Publisher {
        /// What the publisher calls for each subscriber: it sends into the `Subscriber` it is
        /// given, and returns what stops the source.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        /// Starts the source for one subscriber, and returns what stops it.
        public let factory: SubscriberHandler

        /// Creates a publisher that runs `factory` for each subscriber.
        @inlinable
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        @inlinable
        public func receive<S: Sluice.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = BufferedConduit("Create", downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.handedOver()
            let source = factory(Subscriber(subscription: subscription))
            subscription.whenEnded { _ in source.cancel() }
        }

        /// What a source sends into: each call reaches the subscriber as its demand allows.
        /// Anything sent after the completion, or after the subscriber cancelled, is ignored.
        public struct Subscriber {
            @usableFromInline let subscription: BufferedSubscription<Output, Failure>

            @inlinable init(subscription: BufferedSubscription<Output, Failure>) { self.subscription = subscription }

            /// Sends a value.
            @inlinable
            public func send(_ input: Output) {
                if subscription.claim(input) { subscription.deliver(claimed: input) }
            }

            /// Sends the completion, which ends the stream once the values before it are delivered.
            @inlinable
            public func send(completion: Subscribers.Completion<Failure>) {
                subscription.enqueue(completion)
                subscription.deliver()
            }
        }
    }
}
