// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher the test drives by hand. It records, in order, what subscribers ask of it:
/// each subscription, each `request` with its demand, each `cancel`.
///
/// It enforces nothing: the test decides what to send and when, so it can also send what a
/// well-behaved publisher would not (a value after a completion, say) to see the operator cope.
final class TestPublisher<Output, Failure: Error>: Publisher {
    /// One thing a subscriber did to this publisher.
    enum Event: Equatable, CustomStringConvertible {
        case subscribe
        case request(Subscribers.Demand)
        case cancel

        var description: String {
            switch self {
            case .subscribe: "subscribe"
            case .request(let demand): "request(\(demand))"
            case .cancel: "cancel"
            }
        }
    }

    private(set) var events: [Event] = []
    /// The subscriber of the most recent subscription; `send` talks to it. Cleared on cancel
    /// and on `send(completion:)`, as a well-behaved publisher would.
    private(set) var subscriber: AnySubscriber<Output, Failure>?
    /// The most recent subscriber even after cancel or completion, to misbehave with.
    private(set) var lastSubscriber: AnySubscriber<Output, Failure>?
    /// How many subscriptions were handed out. The publisher keeps none of them alive.
    private(set) var subscriptionCount = 0
    /// Whether `lastSubscriber` outlives a cancel (to misbehave with). A lifetime test turns it
    /// off, so that the publisher lets go of its subscriber on a cancel as a well-behaved one does.
    private let keepsLastSubscriber: Bool

    init(keepsLastSubscriber: Bool = true) {
        self.keepsLastSubscriber = keepsLastSubscriber
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        events.append(.subscribe)
        self.subscriber = AnySubscriber(subscriber)
        lastSubscriber = self.subscriber
        subscriptionCount += 1
        subscriber.receive(subscription: TestSubscription(owner: self))
    }

    /// Sends a value to the current subscriber and returns the demand it answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        guard let subscriber else { return .none }
        return subscriber.receive(value)
    }

    /// Sends a completion to the current subscriber and then lets go of it.
    func send(completion: Subscribers.Completion<Failure>) {
        let target = subscriber
        subscriber = nil
        lastSubscriber = nil
        target?.receive(completion: completion)
    }

    /// Sends a completion but keeps the subscriber, so the test can misbehave afterwards.
    func sendKeepingSubscriber(completion: Subscribers.Completion<Failure>) {
        lastSubscriber?.receive(completion: completion)
    }

    /// The total demand requested so far, across all requests.
    var requested: Subscribers.Demand {
        events.reduce(.none) { total, event in
            if case .request(let demand) = event { return total + demand }
            return total
        }
    }

    var cancelCount: Int { events.filter { $0 == .cancel }.count }

    fileprivate func record(_ event: Event) {
        events.append(event)
        if event == .cancel {
            subscriber = nil
            if !keepsLastSubscriber { lastSubscriber = nil }
        }
    }

    /// The subscription the test publisher hands out.
    final class TestSubscription: Subscription, CustomStringConvertible {
        private weak var owner: TestPublisher?

        init(owner: TestPublisher) { self.owner = owner }

        var description: String { "TestSubscription" }

        func request(_ demand: Subscribers.Demand) { owner?.record(.request(demand)) }

        func cancel() { owner?.record(.cancel) }
    }
}

/// A publisher that keeps its subscriber and sends it nothing: the test hands it a subscription
/// when it likes (`subscriber`), or reaches the operator's own object behind it
/// (`subscriberAsSubscription`), as OpenCombine's suite does to cancel an operator's subscription
/// before upstream's has come (`testCancelBeforeSubscription`).
final class HeldPublisher<Output, Failure: Error>: Publisher {
    private(set) var subscriber: AnySubscriber<Output, Failure>?
    /// The subscriber itself, when it is also a subscription (an operator's inner object).
    private(set) var subscriberAsSubscription: (any Subscription)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        subscriberAsSubscription = subscriber as? any Subscription
    }
}
