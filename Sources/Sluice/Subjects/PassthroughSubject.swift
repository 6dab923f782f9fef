// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subject that broadcasts elements to downstream subscribers.
///
/// It keeps no value: a subscriber sees only what is sent after it subscribed, and only as far as
/// its demand allows (a value sent while a subscriber has no demand is not delivered to it). A
/// subscriber that arrives after the completion receives the completion at once.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core = SubjectCore<Output, Failure>(name: "PassthroughSubject", current: nil)

    /// Creates a subject with no subscribers and no value.
    public init() {}

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, holding: self)
    }

    @inlinable public func send(_ input: Output) { core.send(input) }

    @inlinable public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
