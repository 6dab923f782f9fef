// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

/// The example of SluiceTesting's article "Testing your own publishers": the publisher written
/// wrong gets the report the article shows, and the fixed one keeps every rule.
@Suite struct ContractArticleTests {
    @Test func theCountdownWrittenWrongGetsTheArticlesReport() {
        let report = checkContract { NaiveCountdown(from: 3) }
        #expect(report.violations.map(\.rule) == [.demandIsRespected, .cancelStopsDelivery])
        let lines = report.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "kept   the subscription comes first, and once")
        #expect(lines.contains("BROKEN never more values than demanded: value 1 came with no demand outstanding"))
        #expect(lines.contains("BROKEN nothing after cancel: a value came after cancel() returned"))
        #expect(
            report[.cancelStopsDelivery]?.trace == [
                "subscription", "request(max(1))", "value(3)", "cancel", "value(2)", "value(1)", "value(0)",
                "finished", "request(max(1))",
            ])
        #expect(
            lines.last
                == "skipped request and cancel are safe from several threads: checked only when every other rule holds")
    }

    @Test func theArticlesSubjectAndLaterPublisherKeepEveryRule() {
        let report = checkContract(
            ofSubject: { PassthroughSubject<Int, Never>() }, sending: [1, 2, 3],
            promising: [.finishes, .servesSubscribersInOrder])
        #expect(report.violations.isEmpty, "\(report)")
        let queue = DispatchQueue(label: "work")
        expectContract(of: { (0..<100).publisher.receive(on: queue) }, delivering: .asynchronous(within: 0.1))
    }

    @Test func theFixedCountdownKeepsEveryRule() {
        #expect(checkContract { Countdown(from: 3) }.violations.isEmpty)
        expectContract { Countdown(from: 0) }
        expectContract { Countdown(from: 100_000) }
        expectContract(of: { Countdown(from: 3) }, promising: [.finishes, .isCold])
        expectContract(of: { CurrentValueSubject<Int, Never>(1) }, promising: [.replaysLatest])
    }

    @Test func doublingKeepsTheContract() {
        let report = expectContract(ofOperator: { $0.map { $0 * 2 } }, feeding: [1, 2, 3])
        #expect(report.findings.count == PublisherRule.allCases.count - PublisherRule.promises.count)
    }
}

/// Counts down to zero, then finishes: written as people first write a publisher.
struct NaiveCountdown: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let from: Int

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        for number in stride(from: from, through: 0, by: -1) {
            _ = subscriber.receive(number)
        }
        subscriber.receive(completion: .finished)
    }
}

/// Counts down to zero, then finishes, within its subscriber's demand.
struct Countdown: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let from: Int

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: CountdownSubscription(from: from, subscriber))
    }
}

final class CountdownSubscription<S: Subscriber>: Subscription where S.Input == Int, S.Failure == Never {
    private let lock = NSLock()
    private var subscriber: S?
    private var next: Int
    private var demand = Subscribers.Demand.none
    private var delivering = false

    init(from: Int, _ subscriber: S) {
        self.subscriber = subscriber
        next = from
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        // A request from inside `receive` (or from another thread meanwhile) only adds to the
        // demand: the loop below, already running, serves it.
        guard !delivering else { return lock.unlock() }
        delivering = true
        while let subscriber {
            if next < 0 {
                self.subscriber = nil
                lock.unlock()
                return subscriber.receive(completion: .finished)
            }
            guard demand > 0 else { break }
            demand -= 1
            next -= 1
            let number = next + 1
            lock.unlock()
            let added = subscriber.receive(number)
            lock.lock()
            demand += added
        }
        delivering = false
        lock.unlock()
    }

    func cancel() {
        lock.lock()
        subscriber = nil
        lock.unlock()
    }
}
