// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// Each subscriber gets `Subscriptions.empty` and then, if `completeImmediately` is true, `.finished` at
/// once, whatever its demand; otherwise nothing more, ever.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether the publisher finishes as soon as a subscriber attaches, or never completes.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types so that they need not be inferred.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if completeImmediately {
            subscriber.receiveEmptySubscription(thenCompletion: .finished)
        } else {
            subscriber.receive(subscription: Subscriptions.empty)
        }
    }
}

extension Subscriber {
    /// How the sources that have nothing to send end a stream (`Empty`, `Fail`, an empty `Record`,
    /// a `nil` optional, a failed result): `Subscriptions.empty`, then the completion at once. No
    /// demand is needed for a completion, and since the subscription ignores `cancel`, a cancel from
    /// inside `receive(subscription:)` does not stop the completion either (as in Combine).
    func receiveEmptySubscription(thenCompletion completion: Subscribers.Completion<Failure>) {
        receive(subscription: Subscriptions.empty)
        receive(completion: completion)
    }
}
