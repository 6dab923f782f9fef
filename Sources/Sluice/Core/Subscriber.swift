// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A protocol that declares a type that can receive input from a publisher.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed and may request items.
    func receive(subscription: any Subscription)
    /// Tells the subscriber that the publisher has produced an element; returns additional demand.
    func receive(_ input: Input) -> Subscribers.Demand
    /// Tells the subscriber that the publisher has completed publishing.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further requests.
    @inlinable public func receive() -> Subscribers.Demand { receive(()) }
}

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

/// A subscription that asks nothing of anyone: `Subscriptions.empty` (`shared`), or, named as an
/// operator, what a fused chain that ended before it started hands on under that operator.
@usableFromInline
final class EmptySubscription: Subscription, Introspected, Sendable {
    @usableFromInline static let shared = EmptySubscription("Empty")
    @usableFromInline let name: StaticString
    @inlinable init(_ name: StaticString) { self.name = name }
    @usableFromInline func request(_ demand: Subscribers.Demand) {}
    @usableFromInline func cancel() {}
    @usableFromInline var description: String { "\(name)" }
}

extension Subscribers {
    /// A signal that a publisher has stopped publishing, normally or because of an error.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped because of the given error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion: Codable where Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case success
        case error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self =
            try container.decode(Bool.self, forKey: .success)
            ? .finished : .failure(try container.decode(Failure.self, forKey: .error))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}
