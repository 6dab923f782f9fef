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
    /// What the race knows, under the lock: a struct of fields, so that a winner's value reads the
    /// two it needs without copying the rest.
    @usableFromInline
    struct State {
        /// Downstream, until the stream ends.
        @usableFromInline var downstream: Downstream?
        /// The side that sent the first event, once one has.
        @usableFromInline var winner: AmbSideName?
        /// The subscriptions that have come, by side (the loser's is dropped when it loses).
        @usableFromInline var subscriptions: (first: (any Subscription)?, second: (any Subscription)?)
        /// What downstream has asked for before there was a winner.
        @usableFromInline var demand = Subscribers.Demand.none

        @inlinable init(downstream: Downstream) { self.downstream = downstream }

        @inlinable
        subscript(side: AmbSideName) -> (any Subscription)? {
            get { side == .first ? subscriptions.first : subscriptions.second }
            set {
                if side == .first { subscriptions.first = newValue } else { subscriptions.second = newValue }
            }
        }

        /// A subscription from `side`: the demand to ask of it, or nil to cancel it.
        @inlinable
        mutating func subscribed(_ side: AmbSideName, _ subscription: any Subscription) -> Subscribers.Demand? {
            guard downstream != nil, winner == nil else { return nil }
            self[side] = subscription
            return demand
        }

        @usableFromInline
        enum Arrival {
            /// The event is the loser's, or comes after the end.
            case ignored
            /// The winner's event goes downstream.
            case deliver(Downstream)
            /// The event makes its side the winner: it goes downstream, and the loser is cancelled.
            case win(Downstream, loser: (any Subscription)?)
        }

        /// Where an event from `side` goes. An `ending` event ends the stream.
        @inlinable
        mutating func arrival(from side: AmbSideName, ending: Bool) -> Arrival {
            guard let downstream else { return .ignored }
            if let winner {
                guard winner == side else { return .ignored }
                if ending { _ = end() }
                return .deliver(downstream)
            }
            guard self[side] != nil else { return .ignored }
            winner = side
            let loser = self[side.other]
            self[side.other] = nil
            if ending { _ = end() }
            return .win(downstream, loser: loser)
        }

        /// The subscriptions held now.
        @inlinable var held: [any Subscription] { [subscriptions.first, subscriptions.second].compactMap { $0 } }

        /// Downstream asks for `demand`: the subscriptions to ask it of.
        @inlinable
        mutating func request(_ more: Subscribers.Demand) -> [any Subscription] {
            guard downstream != nil else { return [] }
            if winner == nil { demand += more }
            return held
        }

        /// Ends the stream: the subscriptions to cancel (none once it has ended).
        @inlinable
        mutating func end() -> [any Subscription] {
            guard downstream != nil else { return [] }
            defer { subscriptions = (nil, nil) }
            downstream = nil
            return held
        }
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var state: State

    @inlinable
    init(downstream: Downstream) {
        state = State(downstream: downstream)
    }

    @usableFromInline var description: String { "Amb" }

    @inlinable
    func subscribed(_ side: AmbSideName, _ subscription: any Subscription) {
        guard let demand = lock.withLock({ state.subscribed(side, subscription) }) else { return subscription.cancel() }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func published(_ side: AmbSideName, _ value: Downstream.Input) -> Subscribers.Demand {
        switch lock.withLock({ state.arrival(from: side, ending: false) }) {
        case .ignored:
            return .none
        case .deliver(let downstream):
            return downstream.receive(value)
        case .win(let downstream, let loser):
            loser?.cancel()
            return downstream.receive(value)
        }
    }

    @inlinable
    func completed(_ side: AmbSideName, _ completion: Subscribers.Completion<Downstream.Failure>) {
        switch lock.withLock({ state.arrival(from: side, ending: true) }) {
        case .ignored:
            return
        case .deliver(let downstream):
            downstream.receive(completion: completion)
        case .win(let downstream, let loser):
            loser?.cancel()
            downstream.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        for target in lock.withLock({ state.request(demand) }) { target.request(demand) }
    }

    @inlinable
    func cancel() {
        for target in lock.withLock({ state.end() }) { target.cancel() }
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
