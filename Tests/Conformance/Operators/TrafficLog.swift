// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// One log for the traffic of several publishers and a subscriber, to check the order of events
/// *across* them (which upstream is subscribed first, which one is cancelled first). Each
/// `TestPublisher` records only its own traffic; this records the interleaving.
final class TrafficLog {
    private(set) var entries: [String] = []

    func record(_ entry: String) { entries.append(entry) }
}

/// A publisher in front of a `TestPublisher` that writes into a shared log, under a name, what its
/// subscriber does: subscribe, request, cancel. Values and completions pass through unlogged.
struct LoggingPublisher<Output, Failure: Error>: Publisher {
    let name: String
    let base: TestPublisher<Output, Failure>
    let log: TrafficLog

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        log.record("\(name) subscribe")
        base.subscribe(Relay(name: name, log: log, downstream: subscriber))
    }

    private final class Relay<Downstream: Subscriber>: Subscriber, Subscription
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let name: String
        private let log: TrafficLog
        private let downstream: Downstream
        private var upstream: (any Subscription)?

        init(name: String, log: TrafficLog, downstream: Downstream) {
            self.name = name
            self.log = log
            self.downstream = downstream
        }

        func receive(subscription: any Subscription) {
            upstream = subscription
            downstream.receive(subscription: self)
        }

        func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }

        func receive(completion: Subscribers.Completion<Failure>) {
            upstream = nil
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            log.record("\(name) request(\(demand))")
            upstream?.request(demand)
        }

        func cancel() {
            log.record("\(name) cancel")
            upstream?.cancel()
            upstream = nil
        }
    }
}

/// A subscriber that writes what it receives into a shared log, and asks for `initialDemand`
/// as soon as it is subscribed.
final class LoggingSubscriber<Input, Failure: Error>: Subscriber {
    private let log: TrafficLog
    private let initialDemand: Subscribers.Demand?
    private(set) var subscription: (any Subscription)?

    init(log: TrafficLog, initialDemand: Subscribers.Demand?) {
        self.log = log
        self.initialDemand = initialDemand
    }

    func receive(subscription: any Subscription) {
        log.record("downstream subscription")
        self.subscription = subscription
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.record("downstream value(\(input))")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log.record("downstream finished")
        case .failure(let error): log.record("downstream failure(\(error))")
        }
        subscription = nil
    }
}

extension TestPublisher {
    /// This publisher behind a `LoggingPublisher` that writes into `log` under `name`.
    func logging(as name: String, into log: TrafficLog) -> LoggingPublisher<Output, Failure> {
        LoggingPublisher(name: name, base: self, log: log)
    }

    /// A subscription of this publisher that the test can hand to a subscriber by hand (a second
    /// subscription, say); what the subscriber does with it shows in `events`.
    func makeSubscription() -> any Subscription { TestSubscription(owner: self) }
}
