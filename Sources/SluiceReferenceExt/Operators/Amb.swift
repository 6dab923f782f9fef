// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluiceReference

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
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let race = AmbSubscription(downstream: AnySubscriber(subscriber))
            subscriber.receive(subscription: race)
            first.subscribe(race.side(.first))
            second.subscribe(race.side(.second))
        }
    }
}

/// The subscription of `amb`, under one lock: downstream's demand goes to both publishers until
/// one of them sends an event, which makes it the winner; the other is cancelled and ignored.
private final class AmbSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    enum Side: Int {
        case first, second

        var other: Side { self == .first ? .second : .first }
    }

    enum State {
        /// No event yet: the subscriptions that have come (by side), and what downstream has
        /// asked for.
        case racing(AnySubscriber<Output, Failure>, [(any Subscription)?], Subscribers.Demand)
        /// One side sent an event: only its events reach downstream.
        case won(Side, AnySubscriber<Output, Failure>, any Subscription)
        case ended
    }

    private let lock = Lock()
    private var state: State

    init(downstream: AnySubscriber<Output, Failure>) {
        state = .racing(downstream, [nil, nil], .none)
    }

    var description: String { "Amb" }

    /// The subscriber for one of the two publishers.
    func side(_ side: Side) -> AnySubscriber<Output, Failure> {
        AnySubscriber(
            receiveSubscription: { self.subscribed(side, $0) },
            receiveValue: { self.published(side, $0) },
            receiveCompletion: { self.completed(side, $0) })
    }

    private func subscribed(_ side: Side, _ subscription: any Subscription) {
        let demand = lock.withLock { () -> Subscribers.Demand? in
            guard case .racing(let downstream, var subscriptions, let demand) = state else { return nil }
            subscriptions[side.rawValue] = subscription
            state = .racing(downstream, subscriptions, demand)
            return demand
        }
        guard let demand else { return subscription.cancel() }
        if demand > 0 { subscription.request(demand) }
    }

    private func published(_ side: Side, _ value: Output) -> Subscribers.Demand {
        guard let (downstream, loser) = arrival(from: side) else { return .none }
        loser?.cancel()
        return downstream.receive(value)
    }

    private func completed(_ side: Side, _ completion: Subscribers.Completion<Failure>) {
        guard let (downstream, loser) = arrival(from: side, ending: true) else { return }
        loser?.cancel()
        downstream.receive(completion: completion)
    }

    /// Where an event from `side` goes: downstream, if `side` is or becomes the winner, with the
    /// loser's subscription to cancel when it has just won.
    private func arrival(from side: Side, ending: Bool = false) -> (
        AnySubscriber<Output, Failure>, (any Subscription)?
    )? {
        lock.withLock {
            switch state {
            case .racing(let downstream, let subscriptions, _):
                guard let own = subscriptions[side.rawValue] else { return nil }
                state = ending ? .ended : .won(side, downstream, own)
                return (downstream, subscriptions[side.other.rawValue])
            case .won(let winner, let downstream, _) where winner == side:
                if ending { state = .ended }
                return (downstream, nil)
            case .won, .ended:
                return nil
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let targets = lock.withLock { () -> [any Subscription] in
            switch state {
            case .racing(let downstream, let subscriptions, let pending):
                state = .racing(downstream, subscriptions, pending + demand)
                return subscriptions.compactMap { $0 }
            case .won(_, _, let winner):
                return [winner]
            case .ended:
                return []
            }
        }
        for target in targets { target.request(demand) }
    }

    func cancel() {
        let targets = lock.withLock { () -> [any Subscription] in
            defer { state = .ended }
            switch state {
            case .racing(_, let subscriptions, _): return subscriptions.compactMap { $0 }
            case .won(_, _, let winner): return [winner]
            case .ended: return []
            }
        }
        for target in targets { target.cancel() }
    }
}
