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
        RelayFeed.attach(publisher, to: subject)
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
        RelayFeed.attach(publisher, to: subject)
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

/// Feeds a relay's subject from a publisher as `publisher.subscribe(subject)` does, except that
/// upstream's completion ends the feed, never the relay.
///
/// The subject gets this feed as an upstream subscription, and asks through it only once a
/// subscriber of its own has asked (as Combine's subjects do): a value that a `CurrentValueRelay`
/// fed into another relay holds waits for that relay's subscribers instead of going to nobody, as
/// in CombineExt.
@usableFromInline
final class RelayFeed<Target: Subject>: Subscriber, Subscription where Target.Failure == Never {
    @usableFromInline typealias Input = Target.Output
    @usableFromInline typealias Failure = Never

    @usableFromInline let lock = Lock()
    /// Weak, as Combine's subject subscriber holds its subject: the relay lives as long as its owner.
    @usableFromInline weak var subject: Target?
    /// Upstream's subscription, until the feed is cancelled or upstream completes.
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var hasEnded = false

    @inlinable
    init(_ subject: Target) { self.subject = subject }

    /// Subscribes a feed of `subject` to `publisher`; the returned cancellable ends it.
    @inlinable
    static func attach<P: Publisher>(_ publisher: P, to subject: Target) -> AnyCancellable
    where P.Output == Target.Output, P.Failure == Never {
        let feed = RelayFeed(subject)
        publisher.subscribe(feed)
        return AnyCancellable(feed)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let target = lock.withLock { () -> Target? in
            guard !hasEnded, upstream == nil, let subject else { return nil }
            upstream = subscription
            return subject
        }
        guard let target else { return subscription.cancel() }
        target.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let target = lock.withLock({ hasEnded ? nil : subject }) else { return .none }
        target.send(input)
        return .none
    }

    /// A relay does not complete: the feed ends and lets go of upstream (outside the lock).
    @inlinable
    func receive(completion: Subscribers.Completion<Never>) { _ = end() }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    @inlinable
    func cancel() { end()?.cancel() }

    /// Ends the feed: upstream's subscription, if it was live.
    @inlinable
    func end() -> (any Subscription)? {
        lock.withLock {
            defer { upstream = nil; hasEnded = true }
            return upstream
        }
    }
}
