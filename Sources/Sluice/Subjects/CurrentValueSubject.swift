// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A subscriber receives the current value when it first asks for demand, then every later value.
/// A subscriber that has no demand when a value is sent receives the then-current value when it
/// next asks. Once completed, the subject publishes nothing more: `send(_:)` is ignored, while
/// setting `value` still stores it (as in Combine).
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// Setting it after completion stores the value without publishing it.
    public var value: Output {
        get { core.currentValue().value }
        set { core.send(newValue, storingAfterCompletion: true) }
    }

    /// Creates a current value subject with the given initial value.
    public init(_ value: Output) {
        core = SubjectCore(name: "CurrentValueSubject", current: value)
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, holding: self)
    }

    @inlinable public func send(_ input: Output) { core.send(input) }

    @inlinable public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
