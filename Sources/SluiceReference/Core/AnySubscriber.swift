// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A type-erasing subscriber.
///
/// Wraps an existing subscriber whose details you don't want to expose, or builds a subscriber
/// from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    public let combineIdentifier: CombineIdentifier
    private let receiveSubscriptionBody: (any Subscription) -> Void
    private let receiveValueBody: (Input) -> Subscribers.Demand
    private let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void
    /// What it introspects as: the wrapped subscriber, or a name for a closure-based one.
    private let wrapped: Any

    /// Wraps the given subscriber.
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = s.combineIdentifier
        receiveSubscriptionBody = s.receive(subscription:)
        receiveValueBody = s.receive(_:)
        receiveCompletionBody = s.receive(completion:)
        wrapped = s
    }

    /// Wraps the given subject, as `Publisher.subscribe(_:)` with a subject does: the upstream subscription
    /// is handed to the subject, which decides when to ask for values, and values and the completion are sent
    /// to it until the subscription is cancelled.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Creates a subscriber from closures; a missing closure ignores its event (and a missing
    /// value closure asks for no more demand).
    ///
    /// As Combine's, it may be subscribed again after a stream ends, and takes the next stream. A
    /// subscription lets go of it when its stream ends; the closures go when the last holder of
    /// the `AnySubscriber` does.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionBody = receiveSubscription ?? { _ in }
        receiveValueBody = receiveValue ?? { _ in .none }
        receiveCompletionBody = receiveCompletion ?? { _ in }
        wrapped = "Anonymous AnySubscriber"
    }

    public var description: String { String(describing: wrapped) }

    public var customMirror: Mirror { Mirror(reflecting: wrapped) }

    public var playgroundDescription: Any { description }

    public func receive(subscription: any Subscription) { receiveSubscriptionBody(subscription) }

    public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}
