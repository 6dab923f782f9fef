// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The publisher contract, checked: scripted subscribers run against a factory of the publisher
// under test, and each rule says whether it held, with the trace that broke it. Written once and
// compiled against each implementation (see VirtualTime.swift).
//
// First step of issue 36: the rules a synchronous publisher can break. Still to come: operators
// (an upstream test publisher and its demand ledger), cancels from other threads, the optional
// rules, the equivalence check, the Swift Testing and XCTest helpers.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// A rule of the contract between a publisher and its subscriber.
public enum PublisherRule: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The subscription comes first, and once (Combine's `Subscriber`; Reactive Streams 1.9, 2.5).
    case subscriptionFirstAndOnce
    /// Never more values than demanded (Combine's `Subscribers.Demand`; Reactive Streams 1.1).
    case demandIsRespected
    /// At most one completion (Reactive Streams 1.7).
    case oneCompletion
    /// Nothing after the completion (Reactive Streams 1.7, 2.4).
    case nothingAfterCompletion
    /// After `cancel()` returns, nothing more is delivered (Reactive Streams 1.8, 3.6).
    case cancelStopsDelivery
    /// After `cancel()`, the publisher lets go of the subscriber (Reactive Streams 3.13).
    case cancelReleasesSubscriber
    /// Demand asked for from inside `receive(_:)` does not deepen the stack without bound (Reactive
    /// Streams 3.3): values keep coming when each `receive` returns `.max(1)`.
    case synchronousDemandIsBounded

    /// The rule in words, as a report prints it.
    public var description: String {
        switch self {
        case .subscriptionFirstAndOnce: "the subscription comes first, and once"
        case .demandIsRespected: "never more values than demanded"
        case .oneCompletion: "at most one completion"
        case .nothingAfterCompletion: "nothing after the completion"
        case .cancelStopsDelivery: "nothing after cancel"
        case .cancelReleasesSubscriber: "a cancel lets go of the subscriber"
        case .synchronousDemandIsBounded: "synchronous demand does not recurse without bound"
        }
    }
}

/// What `checkContract(of:)` found: each rule, kept or broken, with the events that broke it.
public struct ContractReport: CustomStringConvertible {
    /// One rule's outcome.
    public struct Finding: CustomStringConvertible {
        /// The rule.
        public let rule: PublisherRule
        /// Why the rule was broken (`nil`: it held).
        public let violation: String?
        /// The events the scripted subscriber saw in the run that broke it, one per line.
        public let trace: [String]

        /// Whether the rule held.
        public var held: Bool { violation == nil }

        /// "kept" and the rule, or "BROKEN", the rule, why, and the trace.
        public var description: String {
            guard let violation else { return "kept   \(rule)" }
            return (["BROKEN \(rule): \(violation)"] + trace.map { "         \($0)" }).joined(separator: "\n")
        }
    }

    /// Every rule's outcome, in `PublisherRule.allCases` order.
    public let findings: [Finding]

    /// The rules that were broken.
    public var violations: [Finding] { findings.filter { !$0.held } }

    /// The outcome for one rule.
    public subscript(rule: PublisherRule) -> Finding { findings.first { $0.rule == rule }! }

    /// Every finding, one rule per line (a broken rule's trace below it).
    public var description: String { findings.map(\.description).joined(separator: "\n") }
}

/// Runs every rule of `PublisherRule` against publishers made by `makePublisher`, one fresh
/// publisher per scripted subscriber, and reports each rule.
///
/// The publisher is expected to deliver synchronously (from `subscribe` and `request`), as
/// sequences, `Just`, `Future`s already fulfilled and most operators over them do.
public func checkContract<P: Publisher>(of makePublisher: () -> P) -> ContractReport {
    var broken: [PublisherRule: (String, [String])] = [:]
    func note(_ rule: PublisherRule, _ violation: String?, _ probe: ContractProbe<P.Output, P.Failure>) {
        if let violation, broken[rule] == nil { broken[rule] = (violation, probe.trace) }
    }
    // Demand scripts: none at first, one at a time, a burst, everything.
    let scripts: [(initial: Subscribers.Demand, perValue: Subscribers.Demand, then: Subscribers.Demand)] = [
        (.none, .none, .none), (.max(1), .max(1), .none), (.max(3), .none, .max(2)), (.unlimited, .none, .none),
    ]
    for script in scripts {
        let probe = ContractProbe<P.Output, P.Failure>(initial: script.initial, perValue: script.perValue)
        makePublisher().subscribe(probe)
        if script.then != .none { probe.request(script.then) }
        let rules: [PublisherRule] = [
            .subscriptionFirstAndOnce, .demandIsRespected, .oneCompletion, .nothingAfterCompletion,
        ]
        for rule in rules { note(rule, probe.violation(of: rule), probe) }
    }
    // Cancel after the first value: nothing more, and the subscriber is let go of (the publisher
    // itself still alive).
    let publisher = makePublisher()
    weak var released: ContractProbe<P.Output, P.Failure>?
    var cancelTrace: [String]?
    do {
        let probe = ContractProbe<P.Output, P.Failure>(initial: .max(1), perValue: .max(1), cancelAfter: 1)
        released = probe
        publisher.subscribe(probe)
        probe.request(.max(1))
        note(.cancelStopsDelivery, probe.violation(of: .cancelStopsDelivery), probe)
        probe.dropSubscription()
        if probe.cancelled { cancelTrace = probe.trace }
    }
    withExtendedLifetime(publisher) {
        if let cancelTrace, released != nil, broken[.cancelReleasesSubscriber] == nil {
            let violation = "the publisher still holds the subscriber after its cancel"
            broken[.cancelReleasesSubscriber] = (violation, cancelTrace)
        }
    }
    // `.max(1)` returned from each value, counting how deep `receive` calls nest.
    do {
        let probe = ContractProbe<P.Output, P.Failure>(initial: .max(1), perValue: .max(1))
        makePublisher().subscribe(probe)
        note(.synchronousDemandIsBounded, probe.violation(of: .synchronousDemandIsBounded), probe)
    }
    return ContractReport(
        findings: PublisherRule.allCases.map { rule in
            ContractReport.Finding(rule: rule, violation: broken[rule]?.0, trace: broken[rule]?.1 ?? [])
        })
}

/// A scripted subscriber that writes down what it sees and what broke the contract.
final class ContractProbe<Input, Failure: Error>: Subscriber {
    /// How far the stack may grow from the first value's `receive(_:)` to a later one's before the
    /// rule on synchronous demand is broken: a publisher that serves demand from inside the call
    /// that asked for it grows it by a few frames per value.
    static var stackGrowthLimit: UInt { 64 * 1024 }
    /// How many events are kept in the trace.
    static var traceLimit: Int { 24 }

    private let initial: Subscribers.Demand
    private let perValue: Subscribers.Demand
    private let cancelAfter: Int?
    private var subscription: (any Subscription)?
    private(set) var trace: [String] = []
    private var subscriptions = 0
    private var outstanding = Subscribers.Demand.none
    private var values = 0
    private var completions = 0
    private(set) var cancelled = false
    /// The stack's position at the first value, and how far it grew below it since.
    private var firstValueStack: UInt?
    private var stackGrowth: UInt = 0
    private var beforeSubscription: String?
    private var beyondDemand: String?
    private var afterCompletion: String?
    private var afterCancel: String?

    init(initial: Subscribers.Demand, perValue: Subscribers.Demand, cancelAfter: Int? = nil) {
        self.initial = initial
        self.perValue = perValue
        self.cancelAfter = cancelAfter
    }

    private func record(_ event: String) {
        if trace.count < Self.traceLimit { trace.append(event) }
    }

    func receive(subscription: any Subscription) {
        record("subscription")
        subscriptions += 1
        guard subscriptions == 1 else { return }
        self.subscription = subscription
        if initial != .none { request(initial) }
    }

    func request(_ demand: Subscribers.Demand) {
        record("request(\(demand))")
        outstanding += demand
        subscription?.request(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record("value")
        values += 1
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        if let firstValueStack {
            if firstValueStack > here { stackGrowth = max(stackGrowth, firstValueStack - here) }
        } else {
            firstValueStack = here
        }
        let terminated = completions > 0 || cancelled
        if subscriptions == 0, beforeSubscription == nil { beforeSubscription = "a value came before the subscription" }
        if completions > 0, afterCompletion == nil { afterCompletion = "a value came after the completion" }
        if cancelled, afterCancel == nil { afterCancel = "a value came after cancel() returned" }
        // A value after the end breaks the rule on the end, not the one on demand as well.
        if outstanding == .none {
            if beyondDemand == nil, !terminated { beyondDemand = "value \(values) came with no demand outstanding" }
        } else {
            outstanding -= 1
        }
        if let cancelAfter, values == cancelAfter, !cancelled {
            cancelled = true
            record("cancel()")
            subscription?.cancel()
            return .none
        }
        // Past the limit, it asks for nothing more, so that the recursion stops before the stack does.
        guard stackGrowth <= Self.stackGrowthLimit else { return .none }
        if perValue != .none { outstanding += perValue }
        return perValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        record(completion.isFinished ? "finished" : "failure")
        completions += 1
        if subscriptions == 0, beforeSubscription == nil {
            beforeSubscription = "the completion came before the subscription"
        }
        if cancelled, afterCancel == nil { afterCancel = "the completion came after cancel() returned" }
    }

    /// Lets go of the subscription, so that what still holds this probe is the publisher's.
    func dropSubscription() { subscription = nil }

    func violation(of rule: PublisherRule) -> String? {
        switch rule {
        case .subscriptionFirstAndOnce:
            if let beforeSubscription { return beforeSubscription }
            if subscriptions == 0 { return "no subscription came" }
            return subscriptions > 1 ? "\(subscriptions) subscriptions came" : nil
        case .demandIsRespected: return beyondDemand
        case .oneCompletion: return completions > 1 ? "\(completions) completions came" : nil
        case .nothingAfterCompletion: return afterCompletion
        case .cancelStopsDelivery: return afterCancel
        case .cancelReleasesSubscriber: return nil
        case .synchronousDemandIsBounded:
            return stackGrowth > Self.stackGrowthLimit
                ? "the stack grew by more than \(Self.stackGrowthLimit / 1024) KiB over \(values) values: "
                    + "the demand a value returned was served from inside the call that delivered it"
                : nil
        }
    }
}

extension Subscribers.Completion {
    fileprivate var isFinished: Bool {
        if case .finished = self { true } else { false }
    }
}
