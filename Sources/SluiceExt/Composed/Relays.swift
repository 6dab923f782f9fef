// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// A publisher that relays the values it accepts, and, unlike a subject, cannot fail or be told to
/// finish: it finishes its subscribers' streams only when it is freed.
///
/// A relay fits state that lives as long as its owner (a view model's events, say): no code path can
/// end it by sending a completion, and a publisher subscribed into it relays its values but not its
/// completion. Subscribers are served in the order they subscribed, as the subjects of both
/// implementations serve theirs.
public protocol Relay<Output>: Publisher where Failure == Never {
    /// Relays `value` to every subscriber.
    func accept(_ value: Output)

    /// Relays `publisher`'s values (not its completion) until the returned cancellable is
    /// cancelled or released.
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Failure == Failure, P.Output == Output
}

extension Relay where Output == Void {
    /// Relays `()` to every subscriber.
    @inlinable
    public func accept() { accept(()) }
}

extension Publisher where Failure == Never {
    /// Relays this publisher's values (not its completion) into `relay`, until the returned
    /// cancellable is cancelled or released.
    @inlinable
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}

/// A relay that passes on each value it accepts to the subscribers it has then: a
/// `PassthroughSubject` that cannot complete.
public final class PassthroughRelay<Output>: Relay {
    public typealias Failure = Never

    @usableFromInline let subject = PassthroughSubject<Output, Never>()

    /// Creates a relay with no subscribers.
    @inlinable
    public init() {}

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    @inlinable
    public func accept(_ value: Output) { subject.send(value) }

    @inlinable
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never {
        publisher.sink { [subject] in subject.send($0) }
    }

    /// Relays this relay's values into `relay` (as CombineExt reads `relay.subscribe(other)`
    /// between two relays: like `publisher.subscribe(relay)`, the argument is the destination)
    /// until the returned cancellable is cancelled or released.
    @inlinable
    public func subscribe<P: Relay>(_ relay: P) -> AnyCancellable where P.Output == Output {
        // Erased, so that the call is `relay`'s own `subscribe(_:)` (a subject would pick
        // `Publisher.subscribe(_ subject:)` and flow the other way), and `relay` is not kept alive.
        relay.subscribe(subject.eraseToAnyPublisher())
    }

    /// Finishes the streams of the subscribers the relay has: a freed relay can send nothing more.
    deinit { subject.send(completion: .finished) }
}

/// A relay that holds a current value, publishes it to each new subscriber and each new value to
/// all: a `CurrentValueSubject` that cannot complete.
public final class CurrentValueRelay<Output>: Relay {
    public typealias Failure = Never

    @usableFromInline let subject: CurrentValueSubject<Output, Never>

    /// The value the relay holds: the last one it accepted.
    @inlinable
    public var value: Output { subject.value }

    /// Creates a relay that holds `value`.
    @inlinable
    public init(_ value: Output) {
        subject = CurrentValueSubject(value)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    @inlinable
    public func accept(_ value: Output) { subject.send(value) }

    @inlinable
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never {
        publisher.sink { [subject] in subject.send($0) }
    }

    /// Relays this relay's values into `relay` (as CombineExt reads `relay.subscribe(other)`
    /// between two relays: like `publisher.subscribe(relay)`, the argument is the destination)
    /// until the returned cancellable is cancelled or released.
    @inlinable
    public func subscribe<P: Relay>(_ relay: P) -> AnyCancellable where P.Output == Output {
        // Erased, so that the call is `relay`'s own `subscribe(_:)` (a subject would pick
        // `Publisher.subscribe(_ subject:)` and flow the other way), and `relay` is not kept alive.
        relay.subscribe(subject.eraseToAnyPublisher())
    }

    /// Finishes the streams of the subscribers the relay has: a freed relay can send nothing more.
    deinit { subject.send(completion: .finished) }
}
