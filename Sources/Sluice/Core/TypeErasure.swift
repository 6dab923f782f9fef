// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Fusion stops here: the erased publisher is subscribed to like any other. The box is made where the
// publisher is erased, its type known there, so the chain beneath runs specialised, and the erasure costs one
// virtual call at subscribe time and the `AnySubscriber` it hands on, one closure call per event at the
// boundary.
/// A publisher that performs type erasure by wrapping another publisher.
///
/// As Combine's, it is one reference to the box that holds the publisher, and erasing an
/// `AnyPublisher` again gives the same box.
@frozen
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
    @usableFromInline let box: AnyPublisherBox<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = ErasedPublisher(publisher)
        }
    }

    public var description: String { "AnyPublisher" }

    public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.subscribe(AnySubscriber(subscriber))
    }
}

/// What an `AnyPublisher` holds: the erased publisher, behind one call through `subscribeEntry`
/// (a function that captures nothing, made where the publisher's type is known, so the box is one
/// allocation).
@usableFromInline
class AnyPublisherBox<Output, Failure: Error> {
    @usableFromInline let subscribeEntry: (AnyPublisherBox, AnySubscriber<Output, Failure>) -> Void

    @inlinable
    init(subscribeEntry: @escaping (AnyPublisherBox, AnySubscriber<Output, Failure>) -> Void) {
        self.subscribeEntry = subscribeEntry
    }

    @inlinable func subscribe(_ subscriber: AnySubscriber<Output, Failure>) { subscribeEntry(self, subscriber) }
}

@usableFromInline
final class ErasedPublisher<Upstream: Publisher>: AnyPublisherBox<Upstream.Output, Upstream.Failure> {
    @usableFromInline let upstream: Upstream

    // Not through `subscribe(_:)`: as in Combine, an `_Introspection` hook does not see this step.
    @inlinable
    init(_ upstream: Upstream) {
        self.upstream = upstream
        super.init { box, subscriber in
            unsafeDowncast(box, to: ErasedPublisher.self).upstream.receive(subscriber: subscriber)
        }
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> { AnyPublisher(self) }
}

/// A type-erasing subscriber.
///
/// Wraps an existing subscriber whose details you don't want to expose, or builds a subscriber
/// from closures.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    public let combineIdentifier: CombineIdentifier
    @usableFromInline let receiveSubscriptionBody: (any Subscription) -> Void
    @usableFromInline let receiveValueBody: (Input) -> Subscribers.Demand
    @usableFromInline let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void
    /// What it shows a debugger: the wrapped subscriber, or a name for a closure-made one.
    @usableFromInline let wrapped: Any

    // Inlinable: the closures are made where `S` is known, so the calls through them run specialised code.
    /// Wraps the given subscriber.
    @inlinable
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

    @inlinable public func receive(subscription: any Subscription) { receiveSubscriptionBody(subscription) }

    @inlinable public func receive(_ value: Input) -> Subscribers.Demand { receiveValueBody(value) }

    @inlinable public func receive(completion: Subscribers.Completion<Failure>) { receiveCompletionBody(completion) }
}
