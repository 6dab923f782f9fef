// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A subscriber receives the current value when it first asks for demand, then every later value.
/// A subscriber that has no demand when a value is sent receives the then-current value when it
/// next asks. Once completed, the subject publishes nothing more: `send(_:)` is ignored, while
/// setting `value` still stores it (as in Combine).
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    /// The value and whether the subject has completed, under one lock.
    private final class State {
        let lock = Lock()
        var value: Output
        /// Counts the values stored, so a subscriber never receives one value twice.
        var version: UInt64 = 0
        var isCompleted = false

        init(_ value: Output) { self.value = value }
    }

    private let state: State
    private let core: SubjectCore<Output, Failure>

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// Setting it after completion stores the value without publishing it.
    public var value: Output {
        get { state.lock.withLock { state.value } }
        set {
            let (publish, version) = state.lock.withLock { () -> (Bool, UInt64) in
                state.value = newValue
                state.version &+= 1
                return (!state.isCompleted, state.version)
            }
            if publish { core.send(newValue, version: version) }
        }
    }

    /// Creates a current value subject with the given initial value.
    public init(_ value: Output) {
        let state = State(value)
        self.state = state
        // Unlike a passthrough subject, it asks upstream subscriptions for values at once.
        core = SubjectCore(
            name: "CurrentValueSubject", currentValue: { state.lock.withLock { (state.value, state.version) } },
            asksUpstreamAtOnce: true)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, holding: self)
    }

    public func send(_ input: Output) {
        let version = state.lock.withLock { () -> UInt64? in
            guard !state.isCompleted else { return nil }
            state.value = input
            state.version &+= 1
            return state.version
        }
        if let version { core.send(input, version: version) }
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        state.lock.withLock { state.isCompleted = true }
        core.send(completion: completion)
    }

    public func send(subscription: any Subscription) { core.send(subscription: subscription) }
}
