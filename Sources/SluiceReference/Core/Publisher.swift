// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers values to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` must match the publisher's `Output` and `Failure`.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error

    /// Attaches the subscriber. ``Publisher/subscribe(_:)-(Subscriber)`` calls this; call that instead.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// While an `_Introspection` hook is enabled, the subscription is reported to it.
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard !IntrospectionHooks.isActive else { return IntrospectionHooks.subscribe(self, subscriber) }
        receive(subscriber: subscriber)
    }
}
