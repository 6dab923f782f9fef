// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Sluice

extension Publishers {
    /// A publisher that mirrors whichever of two publishers sends an event first: see
    /// `amb(_:)`.
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        public typealias Output = First.Output
        public typealias Failure = First.Failure

        /// One of the two publishers that race.
        public let first: First
        /// The other publisher.
        public let second: Second

        /// Creates a publisher that mirrors whichever of `first` and `second` sends an event first.
        @inlinable
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let race = AmbSubscription(downstream: subscriber)
            subscriber.receive(subscription: race)
            first.subscribe(AmbSide(race, .first))
            second.subscribe(AmbSide(race, .second))
        }
    }
}

/// Which of `amb`'s two publishers.
@usableFromInline
enum AmbSideName: Int {
    case first, second

    @inlinable var other: AmbSideName { self == .first ? .second : .first }
}

/// The subscription of `amb`: downstream's demand goes to both publishers until one of them sends
/// an event, which makes it the winner; the other is cancelled and ignored. Its state says, for
/// each event, what to call outside the lock.
@usableFromInline
final class AmbSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    @usableFromInline
    enum State {
        /// No event yet: the subscriptions that have come (by side), and what downstream has
        /// asked for.
        case racing(Downstream, [(any Subscription)?], Subscribers.Demand)
        /// One side sent an event: only its events reach downstream.
        case won(AmbSideName, Downstream, any Subscription)
        case ended

        /// A subscription from `side`: the demand to ask of it, or nil to cancel it.
        @inlinable
        mutating func subscribed(_ side: AmbSideName, _ subscription: any Subscription) -> Subscribers.Demand? {
            guard case .racing(let downstream, var subscriptions, let demand) = self else { return nil }
            subscriptions[side.rawValue] = subscription
            self = .racing(downstream, subscriptions, demand)
            return demand
        }

        /// Where an event from `side` goes: downstream, if `side` is or becomes the winner, with
        /// the loser's subscription to cancel when it has just won.
        @inlinable
        mutating func arrival(from side: AmbSideName, ending: Bool) -> (Downstream, (any Subscription)?)? {
            switch self {
            case .racing(let downstream, let subscriptions, _):
                guard let own = subscriptions[side.rawValue] else { return nil }
                self = ending ? .ended : .won(side, downstream, own)
                return (downstream, subscriptions[side.other.rawValue])
            case .won(let winner, let downstream, _) where winner == side:
                if ending { self = .ended }
                return (downstream, nil)
            case .won, .ended:
                return nil
            }
        }

        /// Downstream asks for `demand`: the subscriptions to ask it of.
        @inlinable
        mutating func request(_ demand: Subscribers.Demand) -> [any Subscription] {
            switch self {
            case .racing(let downstream, let subscriptions, let pending):
                self = .racing(downstream, subscriptions, pending + demand)
                return subscriptions.compactMap { $0 }
            case .won(_, _, let winner):
                return [winner]
            case .ended:
                return []
            }
        }

        /// Ends the stream: the subscriptions to cancel.
        @inlinable
        mutating func cancel() -> [any Subscription] {
            defer { self = .ended }
            switch self {
            case .racing(_, let subscriptions, _): return subscriptions.compactMap { $0 }
            case .won(_, _, let winner): return [winner]
            case .ended: return []
            }
        }
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init(downstream: Downstream) {
        state = .racing(downstream, [nil, nil], .none)
    }

    @usableFromInline var description: String { "Amb" }

    @inlinable
    func subscribed(_ side: AmbSideName, _ subscription: any Subscription) {
        guard let demand = lock.withLock({ state.subscribed(side, subscription) }) else { return subscription.cancel() }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func published(_ side: AmbSideName, _ value: Downstream.Input) -> Subscribers.Demand {
        guard let (downstream, loser) = lock.withLock({ state.arrival(from: side, ending: false) }) else {
            return .none
        }
        loser?.cancel()
        return downstream.receive(value)
    }

    @inlinable
    func completed(_ side: AmbSideName, _ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let (downstream, loser) = lock.withLock({ state.arrival(from: side, ending: true) }) else { return }
        loser?.cancel()
        downstream.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        for target in lock.withLock({ state.request(demand) }) { target.request(demand) }
    }

    @inlinable
    func cancel() {
        for target in lock.withLock({ state.cancel() }) { target.cancel() }
    }
}

/// The subscriber for one of `amb`'s publishers: hands everything to the subscription.
@usableFromInline
struct AmbSide<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let race: AmbSubscription<Downstream>
    @usableFromInline let side: AmbSideName
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(_ race: AmbSubscription<Downstream>, _ side: AmbSideName) {
        self.race = race
        self.side = side
    }

    @inlinable func receive(subscription: any Subscription) { race.subscribed(side, subscription) }
    @inlinable func receive(_ input: Input) -> Subscribers.Demand { race.published(side, input) }
    @inlinable func receive(completion: Subscribers.Completion<Failure>) { race.completed(side, completion) }
}
