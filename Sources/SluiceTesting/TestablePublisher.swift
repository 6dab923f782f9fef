// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Publishers scripted with marble diagrams on a virtual-time scheduler, each subscription keeping
// a ledger of the demand traffic it saw. Written once and compiled against each implementation
// (see VirtualTime.swift).
#if SLUICE_REFERENCE
import SluiceReference
#elseif canImport(Combine)
import Combine
#else
import Sluice
#endif

/// One entry of a subscription's demand ledger, at the virtual time it happened.
public enum LedgerEntry: Equatable, CustomStringConvertible {
    /// The subscriber got its subscription.
    case subscribed(VirtualTime)
    /// The subscriber asked for more.
    case requested(Subscribers.Demand, VirtualTime)
    /// The subscriber cancelled.
    case cancelled(VirtualTime)
    /// The script had a value and the subscriber had no demand for it: it was not sent.
    case overflowed(VirtualTime)

    public var description: String {
        switch self {
        case .subscribed(let time): "\(time) subscribed"
        case .requested(let demand, let time): "\(time) request(\(demand))"
        case .cancelled(let time): "\(time) cancel"
        case .overflowed(let time): "\(time) overflow: a value with no demand, not sent"
        }
    }
}

/// A publisher that plays a marble script on a `VirtualTimeScheduler`, within each subscriber's
/// demand, and keeps each subscription's demand ledger.
///
/// - A cold one plays the whole script for each subscriber, from the instant it subscribes.
/// - A hot one plays it once, from the instant it was made; a subscriber sees what comes after it
///   subscribed.
///
/// A scripted value is sent only while the subscriber has demand: one without demand is not sent
/// and is written down in the ledger as an overflow, so a test can see that an operator asked too
/// little. A test drives it from one thread, by advancing the scheduler.
public final class TestablePublisher<Output, Failure: Error>: Publisher {
    /// Whether the script plays per subscriber or once for all.
    public enum Temperature: Sendable {
        /// The script plays for each subscriber, from when it subscribes.
        case cold
        /// The script plays once, from when the publisher is made.
        case hot
    }

    private let scheduler: VirtualTimeScheduler
    private let temperature: Temperature
    private let script: [(offset: VirtualTime.Stride, event: TimelineEvent<Output, Failure>)]
    private var subscriptions: [TestableSubscription<Output, Failure>] = []

    /// A publisher playing `script`, whose offsets count from the subscription (cold) or from now (hot).
    public init(
        _ temperature: Temperature, on scheduler: VirtualTimeScheduler,
        script: [(offset: VirtualTime.Stride, event: TimelineEvent<Output, Failure>)]
    ) {
        self.scheduler = scheduler
        self.temperature = temperature
        self.script = script
        if temperature == .hot { play(from: scheduler.now) { [weak self] in self?.subscriptions ?? [] } }
    }

    /// Each subscription's ledger, in the order they subscribed.
    public var ledgers: [[LedgerEntry]] { subscriptions.map(\.ledger) }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = TestableSubscription(AnySubscriber(subscriber), scheduler: scheduler)
        subscriptions.append(subscription)
        subscriber.receive(subscription: subscription)
        if temperature == .cold { play(from: scheduler.now) { [subscription] } }
    }

    /// Schedules every event of the script, from `start`, for the subscriptions `receivers` gives then.
    private func play(from start: VirtualTime, to receivers: @escaping () -> [TestableSubscription<Output, Failure>]) {
        for (offset, event) in script {
            scheduler.schedule(after: start.advanced(by: offset)) {
                for subscription in receivers() { subscription.play(event) }
            }
        }
    }
}

extension TestablePublisher {
    /// A publisher playing `diagram` (see `Marbles`), one frame being `frame` of virtual time.
    public convenience init(
        _ temperature: Temperature, _ diagram: String, values: [Character: Output], failure: Failure? = nil,
        frame: VirtualTime.Stride = .milliseconds(1), on scheduler: VirtualTimeScheduler
    ) {
        let events = Marbles.parse(diagram, values: values, failure: failure)
        self.init(
            temperature, on: scheduler,
            script: events.map { (VirtualTime.Stride(nanoseconds: frame.nanoseconds * $0.frame), $0.event) })
    }
}

extension TestablePublisher where Output == Character {
    /// A publisher playing `diagram`, each value being its own character.
    public convenience init(
        _ temperature: Temperature, _ diagram: String, failure: Failure? = nil,
        frame: VirtualTime.Stride = .milliseconds(1), on scheduler: VirtualTimeScheduler
    ) {
        let characters = diagram.filter { !"-|#() ".contains($0) }
        self.init(
            temperature, diagram, values: Dictionary(characters.map { ($0, $0) }, uniquingKeysWith: { a, _ in a }),
            failure: failure, frame: frame, on: scheduler)
    }
}

/// A subscription to a `TestablePublisher`: its demand and its ledger.
private final class TestableSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    private var downstream: AnySubscriber<Output, Failure>?
    private let scheduler: VirtualTimeScheduler
    private var demand = Subscribers.Demand.none
    private(set) var ledger: [LedgerEntry]

    init(_ downstream: AnySubscriber<Output, Failure>, scheduler: VirtualTimeScheduler) {
        self.downstream = downstream
        self.scheduler = scheduler
        ledger = [.subscribed(scheduler.now)]
    }

    var description: String { "TestablePublisher" }

    func play(_ event: TimelineEvent<Output, Failure>) {
        guard let downstream else { return }
        switch event {
        case .subscription:
            return
        case .value(let value):
            guard demand > 0 else { return ledger.append(.overflowed(scheduler.now)) }
            demand -= 1
            demand += downstream.receive(value)
        case .finished:
            self.downstream = nil
            downstream.receive(completion: .finished)
        case .failure(let error):
            self.downstream = nil
            downstream.receive(completion: .failure(error))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        ledger.append(.requested(demand, scheduler.now))
        self.demand += demand
    }

    func cancel() {
        ledger.append(.cancelled(scheduler.now))
        downstream = nil
    }
}
