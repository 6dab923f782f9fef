// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Synchronization
import Testing

/// The test kit's contract check: each deliberately broken publisher and operator of the gallery
/// is caught by exactly the rule it breaks (ContractSweepTests checks the implementation's own).
@Suite struct ContractCheckTests {
    @Test(arguments: BrokenPublisher.Fault.allCases)
    func eachBrokenPublisherIsCaughtByItsRule(_ fault: BrokenPublisher.Fault) {
        let report = checkContract { BrokenPublisher(fault: fault) }
        #expect(report.violations.map(\.rule) == [fault.rule], "\(fault):\n\(report)")
        #expect(report[fault.rule]?.trace.isEmpty == false)
    }

    @Test(arguments: OperatorFault.allCases)
    func eachBrokenOperatorIsCaughtByItsRule(_ fault: OperatorFault) {
        let report = checkContract(ofOperator: { BrokenOperator(upstream: $0, fault: fault) }, feeding: [1, 2, 3])
        #expect(report.violations.map(\.rule) == [fault.rule], "\(fault):\n\(report)")
        #expect(report[fault.rule]?.trace.contains { $0.hasPrefix("upstream: ") } == true)
    }

    @Test func aPublisherThatDeliversLaterIsCheckedInTime() {
        let right = checkContract(of: { LatePublisher(cancelTakes: 0) }, delivering: .asynchronous(within: 0.05))
        #expect(right.violations.isEmpty, "\(right)")
        // Its values keep coming for 300 ms after a cancel: more than the 50 ms allowed.
        let report = checkContract(of: { LatePublisher(cancelTakes: 0.3) }, delivering: .asynchronous(within: 0.05))
        #expect(report.violations.map(\.rule) == [.cancelStopsDelivery], "\(report)")
        #expect(report[.cancelStopsDelivery]?.violation?.contains("ms after cancel() returned") == true, "\(report)")
    }

    @Test func subjectsAreSentValuesAndHeldToTheirOrder() {
        let subject = checkContract(
            ofSubject: { PassthroughSubject<Int, Never>() }, sending: [1, 2, 3],
            promising: [.finishes, .servesSubscribersInOrder])
        #expect(subject.violations.isEmpty, "\(subject)")
        let reversed = checkContract(
            ofSubject: { ReversedSubject() }, sending: [1, 2, 3], promising: [.finishes, .servesSubscribersInOrder])
        #expect(reversed.violations.map(\.rule) == [.servesSubscribersInOrder], "\(reversed)")
        #expect(
            reversed[.servesSubscribersInOrder]?.violation?.contains(#"["third: value(1)", "second: value(1)""#) == true
        )
        // A subject holds nothing for a subscriber that comes later.
        let hot = checkContract(ofSubject: { PassthroughSubject<Int, Never>() }, sending: [1], promising: [.isCold])
        #expect(hot.violations.map(\.rule) == [.isCold], "\(hot)")
    }

    @Test func aRacyCancelIsCaughtUnderThreads() {
        let report = checkContract { RacyPublisher() }
        #expect(report.violations.map(\.rule) == [.concurrentRequestAndCancel], "\(report)")
    }

    @Test func aBrokenPromiseIsCaughtByItsRule() {
        let unending = checkContract(of: { Empty<Int, Never>(completeImmediately: false) }, promising: [.finishes])
        #expect(unending.violations.map(\.rule) == [.finishes], "\(unending)")
        // share() over a sequence: the first subscriber takes it all; the second finds it finished.
        let hot = checkContract(of: { (0..<3).publisher.share() }, promising: [.isCold])
        #expect(hot.violations.map(\.rule) == [.isCold], "\(hot)")
        #expect(
            hot[.isCold]?.violation
                == #"the second subscriber got ["finished"], the first ["value(0)", "value(1)", "value(2)", "finished"]"#
        )
        let forgetful = checkContract(of: { (0..<3).publisher.share() }, promising: [.replaysLatest])
        #expect(forgetful.violations.map(\.rule) == [.replaysLatest], "\(forgetful)")
        #expect(forgetful[.replaysLatest]?.trace.contains("second: finished") == true)
    }

    @Test func keptPromisesAreReportedKept() {
        // A cold publisher makes every promise but the one on subscribers served together.
        let cold = PublisherRule.promises.filter { $0 != .servesSubscribersInOrder }
        let report = checkContract(of: { Just(1) }, promising: cold)
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.findings.count == PublisherRule.allCases.count - 3)
        #expect(
            checkContract(of: { CurrentValueSubject<Int, Never>(1) }, promising: [.replaysLatest]).violations.isEmpty)
        #expect(
            checkContract(ofOperator: { $0.map { $0 + 1 } }, feeding: [1, 2], promising: [.finishes]).violations.isEmpty
        )
    }

    @Test func aReportSaysWhichRuleBrokeAndShowsItsTrace() {
        let report = checkContract { BrokenPublisher(fault: .ignoresDemand) }
        let text = report.description
        #expect(text.contains("BROKEN never more values than demanded: value 1 came with no demand outstanding"))
        #expect(text.contains("kept   at most one completion"))
        #expect(text.contains("skipped request and cancel are safe from several threads"))
        #expect(report[.demandIsRespected]?.trace.prefix(2) == ["subscription", "value(0)"])
        #expect(report[.demandIsRespected]?.diagram.first?.hasPrefix("subscriber: ^ 0 1") == true, "\(report)")
        #expect(text.contains("  subscriber: ^ 0 1"))
        #expect(report[.cancelReachesUpstream] == nil)
    }

    @Test func anOperatorsTraceShowsItsUpstreamTraffic() {
        let report = checkContract(
            ofOperator: { BrokenOperator(upstream: $0, fault: .requestsUnlimited) }, feeding: [7])
        // Two lanes, events in their columns: upstream subscribed, then the subscriber, ...
        let lanes = report[.upstreamDemandFollowsDownstream]?.diagram ?? []
        #expect(lanes.count == 2, "\(report)")
        let (upstream, subscriber) = (lanes.first ?? "", lanes.last ?? "")
        #expect(upstream.hasPrefix("upstream:   ^ "), "\(lanes)")
        #expect(subscriber.hasPrefix("subscriber:   ^ ?1 "), "\(lanes)")
        // The subscriber asked for one; then upstream was asked for everything.
        let asked = subscriber.firstRange(of: "?1").map {
            subscriber.distance(from: subscriber.startIndex, to: $0.lowerBound)
        }
        let passed = upstream.firstRange(of: "?∞").map {
            upstream.distance(from: upstream.startIndex, to: $0.lowerBound)
        }
        #expect(asked != nil && passed != nil && asked! < passed!, "\(lanes)")
        #expect(
            report[.upstreamDemandFollowsDownstream]?.trace.prefix(4) == [
                "upstream: subscribed", "subscription", "request(max(1))", "upstream: request(unlimited)",
            ])
        #expect(
            checkContract(ofOperator: { $0.collect() }, feeding: [1], upstreamDemand: .unconstrained)[
                .upstreamDemandFollowsDownstream] == nil)
    }

    @Test func expectContractRecordsAnIssuePerBrokenRule() {
        withKnownIssue {
            expectContract { BrokenPublisher(fault: .completesTwice) }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("BROKEN at most one completion: 2 completions came") }
        }
        let report = expectContract(ofOperator: { $0.map { $0 + 1 } }, feeding: [1, 2, 3])
        #expect(report.violations.isEmpty)
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

/// The faults of `BrokenOperator`.
enum OperatorFault: CaseIterable, CustomStringConvertible {
    /// Stops delivering on cancel, but leaves its upstream subscription running.
    case forgetsCancel
    /// Asks upstream for everything at once, and buffers what downstream has not asked for.
    case requestsUnlimited

    var rule: PublisherRule {
        switch self {
        case .forgetsCancel: .cancelReachesUpstream
        case .requestsUnlimited: .upstreamDemandFollowsDownstream
        }
    }

    var description: String { "\(rule)" }
}

/// An operator that passes its values on (as `map { $0 }` does) written wrong, one fault at a time.
struct BrokenOperator<Upstream: Publisher>: Publisher where Upstream.Output == Int {
    typealias Output = Int
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let fault: OperatorFault

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        upstream.subscribe(BrokenOperatorLink(fault: fault, downstream: subscriber))
    }
}

/// `BrokenOperator`'s subscriber upstream and subscription downstream (one thread at a time).
final class BrokenOperatorLink<Downstream: Subscriber>: Subscriber, Subscription
where Downstream.Input == Int {
    let fault: OperatorFault
    var downstream: Downstream?
    var upstream: (any Subscription)?
    var demand = Subscribers.Demand.none
    var buffer: [Int] = []
    var completion: Subscribers.Completion<Downstream.Failure>?
    var askedUpstream = false
    var draining = false

    init(fault: OperatorFault, downstream: Downstream) {
        self.fault = fault
        self.downstream = downstream
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func request(_ more: Subscribers.Demand) {
        demand += more
        guard fault == .requestsUnlimited else {
            upstream?.request(more)
            return
        }
        if !askedUpstream {
            askedUpstream = true
            upstream?.request(.unlimited)
        }
        drain()
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        if fault == .requestsUnlimited {
            buffer.append(input)
            drain()
            return .none
        }
        guard let downstream, demand > 0 else { return .none }
        demand -= 1
        let more = downstream.receive(input)
        demand += more
        return more
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        self.completion = completion
        drain()
    }

    /// Sends what is buffered within demand, then the completion once the buffer is empty.
    func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        while let downstream, demand > 0, !buffer.isEmpty {
            demand -= 1
            demand += downstream.receive(buffer.removeFirst())
        }
        if buffer.isEmpty, let completion, let downstream {
            self.downstream = nil
            downstream.receive(completion: completion)
        }
    }

    func cancel() {
        downstream = nil
        if fault != .forgetsCancel { upstream?.cancel() }
        upstream = nil
    }
}

/// A publisher of 0..<1,000 whose subscription is right from one thread, and racy from several: a
/// request copies the state out of its lock, delivers, and writes the copy back, so that a cancel
/// made meanwhile on another thread is lost (and values keep coming after it), as are requests.
struct RacyPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: RacySubscription(subscriber))
    }
}

final class RacySubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
where Downstream.Input == Int, Downstream.Failure == Never {
    struct State: @unchecked Sendable {
        var downstream: Downstream?
        var next = 0
        var demand = Subscribers.Demand.none
    }

    let state: TestLock<State>
    /// Demand asked for from inside `receive`, by the thread delivering: it joins that thread's
    /// loop, so that from one thread the subscription is right.
    let asked = TestLock<[ObjectIdentifier: Subscribers.Demand]>([:])

    init(_ downstream: Downstream) {
        state = TestLock(State(downstream: downstream))
    }

    func request(_ more: Subscribers.Demand) {
        let thread = ObjectIdentifier(Thread.current)
        let reentrant = asked.withLock { asked in
            guard asked[thread] != nil else {
                asked[thread] = Subscribers.Demand.none
                return false
            }
            asked[thread]! += more
            return true
        }
        guard !reentrant else { return }
        defer { asked.withLock { _ = $0.removeValue(forKey: thread) } }
        var local = state.withLock { state in
            state.demand += more
            return state
        }
        while let downstream = local.downstream, local.demand > 0, local.next < 1_000 {
            local.demand -= 1
            local.next += 1
            local.demand += downstream.receive(local.next - 1)
            local.demand += asked.withLock { asked in
                defer { asked[thread] = Subscribers.Demand.none }
                return asked[thread] ?? .none
            }
            // A cancel from inside `receive` is seen here; one from another thread after this point
            // is overwritten when the copy is written back (the pause leaves it time to land).
            if state.withLock({ $0.downstream == nil }) { local.downstream = nil }
            usleep(20)
        }
        if local.next == 1_000, let downstream = local.downstream {
            local.downstream = nil
            downstream.receive(completion: .finished)
        }
        let written = local
        state.withLock { $0 = written }
    }

    func cancel() {
        state.withLock { $0.downstream = nil }
    }
}

/// A publisher of 1...200 that delivers later, one value per millisecond on a queue of its own,
/// within demand; its cancel takes effect after `cancelTakes` seconds (right: at once, through a
/// flag the queue reads before each value).
struct LatePublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let cancelTakes: Double

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = LateSubscription(AnySubscriber(subscriber), cancelTakes: cancelTakes)
        subscriber.receive(subscription: subscription)
    }
}

/// `LatePublisher`'s subscription: its state belongs to its queue.
final class LateSubscription: Subscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<Int, Never>
    private let queue = DispatchQueue(label: "LatePublisher")
    private let cancelTakes: Double
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var sent = 0
    private var pumping = false
    private let lock = NSLock()
    private var cancelled = false

    init(_ downstream: Downstream, cancelTakes: Double) {
        self.downstream = downstream
        self.cancelTakes = cancelTakes
    }

    func request(_ more: Subscribers.Demand) {
        queue.async {
            self.demand += more
            self.pump()
        }
    }

    /// Sends one value and comes back a millisecond later while there is demand; finishes after 200.
    private func pump() {
        guard !pumping, let downstream, !lock.withLock({ cancelled }) else { return }
        if sent == 200 {
            self.downstream = nil
            return downstream.receive(completion: .finished)
        }
        guard demand > 0 else { return }
        demand -= 1
        sent += 1
        demand += downstream.receive(sent)
        pumping = true
        queue.asyncAfter(deadline: .now() + .milliseconds(1)) {
            self.pumping = false
            self.pump()
        }
    }

    func cancel() {
        guard cancelTakes > 0 else {
            lock.withLock { cancelled = true }
            return queue.async { self.downstream = nil }
        }
        queue.asyncAfter(deadline: .now() + cancelTakes) { self.downstream = nil }
    }
}

/// A subject that sends each event to its subscribers latest first: one `PassthroughSubject` per
/// subscriber, sent to in reverse order. Right in every other way.
final class ReversedSubject: Subject, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    private let lock = NSLock()
    private var subjects: [PassthroughSubject<Int, Never>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subject = PassthroughSubject<Int, Never>()
        lock.withLock { subjects.append(subject) }
        subject.subscribe(subscriber)
    }

    func send(_ value: Int) {
        for subject in lock.withLock({ subjects }).reversed() { subject.send(value) }
    }

    func send(completion: Subscribers.Completion<Never>) {
        for subject in lock.withLock({ subjects }).reversed() { subject.send(completion: completion) }
    }

    func send(subscription: any Subscription) {
        subscription.request(.unlimited)
    }
}
