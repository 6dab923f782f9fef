// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import MisuseKit

// The misuse scenarios, written once against the Combine API and compiled against each
// implementation: Checks/Misuse/Sluice and Checks/Misuse/Reference both link
// this folder (a symlink), the second with SLUICE_REFERENCE defined (Package.swift). The
// SluiceMisuse executable (scripts/misuse) runs each in a child process of its own and checks the
// answer it owes: a trap that names the rule, a clean result, or bounded memory.
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
/// The implementation these scenarios were compiled against.
public let implementation = "SluiceReference"
#else
import Sluice
import SluiceFoundation
/// The implementation these scenarios were compiled against.
public let implementation = "Sluice"
#endif

/// Every scenario, in the order the runner prints them.
public func allScenarios() -> [MisuseScenario] {
    apiViolations() + demandArithmetic() + negativeIntervals() + depth() + misbehavingPublishers()
        + resources() + extViolations()
}

/// Subscribes a subscriber that asks for nothing with `request(.none)` as soon as it can.
func requestNone<P: Publisher>(_ publisher: P) {
    publisher.subscribe(
        AnySubscriber<P.Output, P.Failure>(
            receiveSubscription: { $0.request(.none) }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
}

/// The failure type of the scenarios' failing publishers.
struct MisuseError: Error, Equatable {}

/// A subscriber that records what reaches it and checks Combine's contract as it goes: never more
/// values than it asked for, nothing after its completion, one completion.
final class Recorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let lock = NSLock()
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private var subscription: (any Subscription)?
    private(set) var values: [Input] = []
    private(set) var completions: [Subscribers.Completion<Failure>] = []
    private(set) var subscriptions = 0
    private var outstanding = Subscribers.Demand.none
    /// Broken rules, one line each.
    private(set) var violations: [String] = []
    static var afterCompletion: String { "a value after the completion" }
    static var beyondDemand: String { "a value beyond demand" }
    static var secondCompletion: String { "a second completion" }

    init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func receive(subscription: any Subscription) {
        lock.lock()
        subscriptions += 1
        let first = subscriptions == 1
        if first {
            self.subscription = subscription
            outstanding = initialDemand
        }
        lock.unlock()
        if !first {
            subscription.cancel()
        } else if initialDemand > .none {
            subscription.request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        defer { lock.unlock() }
        if !completions.isEmpty { violations.append(Self.afterCompletion) }
        if outstanding == .none { violations.append(Self.beyondDemand) } else { outstanding -= 1 }
        values.append(input)
        outstanding += demandPerValue
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        defer { lock.unlock() }
        if !completions.isEmpty { violations.append(Self.secondCompletion) }
        completions.append(completion)
        subscription = nil
    }

    func cancel() {
        lock.lock()
        let subscription = self.subscription
        self.subscription = nil
        lock.unlock()
        subscription?.cancel()
    }

    var isComplete: Bool { lock.withLock { !completions.isEmpty } }
    var count: Int { lock.withLock { values.count } }
}

/// Checks a recorder's stream: the contract held, and (when given) the values and the ending.
func expectStream<Input: Equatable, Failure: Error>(
    _ recorder: Recorder<Input, Failure>, _ label: String, values: [Input]? = nil, finished: Bool? = nil,
    tolerating tolerated: Set<String> = []
) {
    let violations = recorder.violations.filter { !tolerated.contains($0) }
    MisuseCheck.expect(violations.isEmpty, "\(label): \(violations.joined(separator: ", "))")
    if let values {
        MisuseCheck.expect(
            recorder.values == values,
            "\(label): values \(recorder.values.prefix(10))... (\(recorder.values.count)), expected \(values.prefix(10))... (\(values.count))"
        )
    }
    if let finished {
        let ended: Bool
        if case .finished? = recorder.completions.first { ended = true } else { ended = false }
        MisuseCheck.expect(
            recorder.completions.count == 1 && ended == finished,
            "\(label): completions \(recorder.completions), expected \(finished ? "finished" : "a failure")")
    }
}
