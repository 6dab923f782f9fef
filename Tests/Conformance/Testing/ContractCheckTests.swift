// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The test kit's contract check: each deliberately broken publisher of the gallery is caught by
/// exactly the rule it breaks, and the implementation's own synchronous publishers keep them all.
@Suite struct ContractCheckTests {
    @Test func theImplementationsPublishersKeepEveryRule() {
        let reports: [(String, ContractReport)] = [
            ("Just", checkContract { Just(1) }),
            ("Empty", checkContract { Empty<Int, Never>() }),
            ("Fail", checkContract { Fail<Int, TestError>(error: .oops) }),
            ("sequence", checkContract { (0..<1_000).publisher }),
            ("map.filter", checkContract { (0..<1_000).publisher.map { $0 * 2 }.filter { $0 % 3 == 0 } }),
            ("flatMap", checkContract { [1, 2, 3].publisher.flatMap { Just($0) } }),
            ("merge", checkContract { [1, 2].publisher.merge(with: [3, 4].publisher) }),
            ("zip", checkContract { [1, 2].publisher.zip([3, 4].publisher) }),
        ]
        for (name, report) in reports {
            #expect(report.violations.isEmpty, "\(name):\n\(report)")
        }
    }

    @Test(arguments: BrokenPublisher.Fault.allCases)
    func eachBrokenPublisherIsCaughtByItsRule(_ fault: BrokenPublisher.Fault) {
        let report = checkContract { BrokenPublisher(fault: fault) }
        #expect(report.violations.map(\.rule) == [fault.rule], "\(fault):\n\(report)")
        #expect(!report[fault.rule].trace.isEmpty)
    }

    @Test func aReportSaysWhichRuleBrokeAndShowsItsTrace() {
        let report = checkContract { BrokenPublisher(fault: .ignoresDemand) }
        let text = report.description
        #expect(text.contains("BROKEN never more values than demanded: value 1 came with no demand outstanding"))
        #expect(text.contains("kept   at most one completion"))
        #expect(report[.demandIsRespected].trace.prefix(2) == ["subscription", "value"])
    }
}

/// A publisher of 0, 1, 2 written wrong, one fault at a time.
struct BrokenPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    enum Fault: CaseIterable, CustomStringConvertible {
        case ignoresDemand, sendsAfterCompletion, completesTwice, subscribesTwice, ignoresCancel
        case keepsSubscriberAfterCancel, recursesOnSynchronousDemand

        var rule: PublisherRule {
            switch self {
            case .ignoresDemand: .demandIsRespected
            case .sendsAfterCompletion: .nothingAfterCompletion
            case .completesTwice: .oneCompletion
            case .subscribesTwice: .subscriptionFirstAndOnce
            case .ignoresCancel: .cancelStopsDelivery
            case .keepsSubscriberAfterCancel: .cancelReleasesSubscriber
            case .recursesOnSynchronousDemand: .synchronousDemandIsBounded
            }
        }

        var description: String { "\(rule)" }
    }

    /// Where `keepsSubscriberAfterCancel` keeps its subscriptions: as long as the publisher.
    final class Keeper {
        var subscriptions: [AnyObject] = []
    }

    let fault: Fault
    let keeper = Keeper()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = BrokenSubscription(fault: fault, downstream: subscriber)
        if fault == .keepsSubscriberAfterCancel { keeper.subscriptions.append(subscription) }
        subscriber.receive(subscription: subscription)
        if fault == .subscribesTwice { subscriber.receive(subscription: subscription) }
        // Sends everything at once, asked or not.
        if fault == .ignoresDemand { subscription.deliver() }
    }
}

/// `BrokenPublisher`'s subscription: demand drives the values 0, 1, 2, then `.finished`.
final class BrokenSubscription<Downstream: Subscriber>: Subscription
where Downstream.Input == Int, Downstream.Failure == Never {
    let fault: BrokenPublisher.Fault
    var downstream: Downstream?
    var next = 0
    var demand = Subscribers.Demand.none
    var delivering = false
    var cancelled = false
    let count: Int

    init(fault: BrokenPublisher.Fault, downstream: Downstream) {
        self.fault = fault
        self.downstream = downstream
        count = fault == .recursesOnSynchronousDemand ? 10_000 : 3
    }

    func request(_ more: Subscribers.Demand) {
        demand += more
        if fault == .recursesOnSynchronousDemand { return deliverRecursively() }
        deliver()
    }

    /// Delivers what demand allows (everything, for `ignoresDemand`), then the completion.
    func deliver() {
        guard !delivering else { return }
        delivering = true
        defer { delivering = false }
        while let downstream, !cancelled || fault == .ignoresCancel, next < count,
            demand > 0 || fault == .ignoresDemand
        {
            if demand > 0 { demand -= 1 }
            next += 1
            demand += downstream.receive(next - 1)
        }
        guard let downstream, !cancelled, next == count else { return }
        self.downstream = nil
        downstream.receive(completion: .finished)
        if fault == .sendsAfterCompletion { _ = downstream.receive(99) }
        if fault == .completesTwice { downstream.receive(completion: .finished) }
    }

    /// Serves demand from inside `receive`, one frame deeper per value.
    private func deliverRecursively() {
        guard let downstream, !cancelled, next < count, demand > 0 else { return }
        demand -= 1
        next += 1
        let more = downstream.receive(next - 1)
        if more > 0 { request(more) }
    }

    func cancel() {
        if fault == .ignoresCancel { return }
        cancelled = true
        if fault != .keepsSubscriberAfterCancel { downstream = nil }
    }
}
