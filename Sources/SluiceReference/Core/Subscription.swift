// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are classes: they have identity, and cancelling one frees the resources of the
/// connection. `request(_:)` and `cancel()` may be called from any thread.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    func request(_ demand: Subscribers.Demand)
}

extension Subscriptions {
    /// A subscription that does nothing: requests and cancels are ignored.
    public static var empty: any Subscription { EmptySubscription.shared }
}

private final class EmptySubscription: Subscription, Introspected, Sendable {
    static let shared = EmptySubscription()
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Empty" }
}
