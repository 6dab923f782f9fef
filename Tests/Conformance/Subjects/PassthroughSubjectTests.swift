// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct PassthroughSubjectTests {
    typealias IntSubject = PassthroughSubject<Int, TestError>

    // MARK: Fan-out and demand

    @Test func fansOutToEverySubscriberWithinItsOwnDemand() {
        let subject = IntSubject()
        let unlimited = subject.record()
        let two = subject.record(initialDemand: .max(2))
        let none = subject.record(initialDemand: nil)
        for value in 1...3 { subject.send(value) }
        #expect(unlimited.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(two.events == [.subscription, .value(1), .value(2)])
        #expect(none.events == [.subscription])
        // A value sent while a subscriber had no demand is gone for it: asking later does not
        // bring it back, it only lets the next value through.
        none.request(.max(1))
        #expect(none.events == [.subscription])
        subject.send(4)
        #expect(none.values == [4])
        #expect(two.values == [1, 2])
        #expect(unlimited.values == [1, 2, 3, 4])
    }

    @Test func keepsNoValueForLateSubscribers() {
        let subject = IntSubject()
        subject.send(1)
        let late = subject.record()
        subject.send(2)
        #expect(late.events == [.subscription, .value(2)])
        #expect(late.subscriptionDescriptions == ["PassthroughSubject"])
    }

    /// `initial` is asked for on subscription; `perValue[i]` is returned for the i-th value
    /// (`.none` past the end). 20 values are sent; `delivered` is how many arrive.
    @Test(arguments: [
        (initial: Subscribers.Demand?.none, perValue: [Subscribers.Demand.max(1), .max(1)], delivered: 0),
        (initial: .max(1), perValue: [], delivered: 1),
        (initial: .max(1), perValue: Array(repeating: .max(1), count: 10), delivered: 11),
        (initial: .max(1), perValue: [.max(1), .none, .max(1)], delivered: 2),
        (initial: .max(2), perValue: [.max(1), .none, .max(1), .none], delivered: 4),
        (initial: .max(2), perValue: [.none, .max(1), .max(2)], delivered: 5),
        (initial: .max(1), perValue: [.unlimited], delivered: 20),
        (initial: .unlimited, perValue: [], delivered: 20),
    ])
    func demandReturnedFromReceiveAddsUp(initial: Subscribers.Demand?, perValue: [Subscribers.Demand], delivered: Int) {
        let subject = IntSubject()
        var index = 0
        let recorder = subject.record(initialDemand: initial) { _ in
            defer { index += 1 }
            return index < perValue.count ? perValue[index] : .none
        }
        for value in 0..<20 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.values == Array(0..<delivered))
        #expect(recorder.completions.count == 1)
    }

    @Test func demandAddsUpAcrossRequests() {
        let subject = IntSubject()
        let recorder = subject.record(initialDemand: .max(1))
        recorder.request(.max(2))
        recorder.request(.max(1))
        for value in 1...6 { subject.send(value) }
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = PassthroughSubject<Int, Never>().record(initialDemand: nil)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation")
    }

    @Test func requestingNoneOnSubscriptionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().record(initialDemand: Subscribers.Demand.none)
        }
        expectTrapMessage(result, contains: "API violation")
    }

    @Test func sendWithoutArgumentForVoidSubjects() {
        let subject = PassthroughSubject<Void, Never>()
        let recorder = subject.record()
        subject.send()
        subject.send()
        #expect(recorder.values.count == 2)
    }

    // MARK: Completion

    @Test func completionReachesEverySubscriberOnceWhateverItsDemand() {
        let subject = IntSubject()
        let unlimited = subject.record()
        let none = subject.record(initialDemand: nil)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        subject.send(completion: .finished)
        subject.send(completion: .failure(.other))
        subject.send(2)
        #expect(unlimited.events == [.subscription, .value(1), .failure(.oops)])
        #expect(none.events == [.subscription, .failure(.oops)])
    }

    @Test func subscriberArrivingAfterCompletionGetsAnEmptySubscriptionThenTheCompletion() {
        let subject = IntSubject()
        subject.send(completion: .failure(.other))
        let late = subject.record(initialDemand: nil)
        #expect(late.events == [.subscription, .failure(.other)])
        #expect(late.subscriptionDescriptions == ["Empty"])
    }

    @Test func requestAndCancelAfterCompletionDoNothing() {
        let subject = IntSubject()
        let recorder = subject.record(initialDemand: .max(1))
        let subscription = recorder.subscription
        subject.send(completion: .finished)
        subscription?.request(.max(3))
        subscription?.cancel()
        subject.send(1)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func completionReleasesSubscriptionAndSubscriber() {
        let subject = IntSubject()
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        weak var weakSubscription: AnyObject?
        do {
            let recorder = subject.record()
            weakRecorder = recorder
            weakSubscription = recorder.firstSubscription
            #expect(weakSubscription != nil)
        }
        #expect(weakRecorder != nil, "a live subscription keeps its subscriber")
        subject.send(completion: .finished)
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Cancel

    @Test func cancelledSubscriberReceivesNothingMoreWhileOthersContinue() {
        let subject = IntSubject()
        let cancelled = subject.record()
        let other = subject.record()
        subject.send(1)
        let subscription = cancelled.subscription
        cancelled.cancel()
        subscription?.cancel()
        subscription?.request(.max(5))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(cancelled.events == [.subscription, .value(1)])
        #expect(other.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func subjectDoesNotKeepACancelledSubscriberAlive() {
        let subject = IntSubject()
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        weak var weakSubscription: AnyObject?
        do {
            let recorder = subject.record()
            weakRecorder = recorder
            weakSubscription = recorder.firstSubscription
            subject.send(1)
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
        subject.send(2)
    }

    @Test func subjectIsReleasedOnceItsSubscribersAreDone() {
        weak var weakSubject: IntSubject?
        do {
            let subject = IntSubject()
            weakSubject = subject
            let finished = subject.record()
            let cancelled = subject.record()
            cancelled.cancel()
            subject.send(completion: .finished)
            #expect(finished.completions.count == 1)
        }
        #expect(weakSubject == nil)
    }

    // MARK: Re-entrancy

    /// A send from inside `receive` is delivered at once, nested inside the outer delivery (as in
    /// Combine): the sending subscriber sees the values in order, a subscriber later in the list
    /// sees the nested value before the outer one.
    @Test func sendFromInsideReceiveIsDeliveredAtOnce() {
        let subject = IntSubject()
        let sender = subject.record()
        let bystander = subject.record()
        sender.onValue = { value in
            if value == 1 { subject.send(2) }
        }
        subject.send(1)
        subject.send(3)
        #expect(sender.values == [1, 2, 3])
        #expect(bystander.values == [2, 1, 3])
    }

    /// Sends nested one inside the other are delivered at once, as in Combine, while they are
    /// shallow (the value sent from inside `receive` arrives before `send` returns); past 32
    /// nested deliveries a value waits for the deepest delivery to return, so that a chain of
    /// sends 10,000 deep keeps a bounded stack. Every value arrives, once, in the order sent.
    @Test func deepSendsFromInsideReceiveKeepABoundedStack() {
        let subject = IntSubject()
        let sender = subject.record()
        var log: [String] = []
        sender.onValue = { value in
            log.append("receive \(value)")
            if value < 10_000 { subject.send(value + 1) }
            log.append("return \(value)")
        }
        subject.send(1)
        #expect(sender.values == Array(1...10_000))
        // Shallow: nested, as in Combine.
        #expect(Array(log.prefix(4)) == ["receive 1", "receive 2", "receive 3", "receive 4"])
        // 32 deep: the 33rd value waits for the 32nd receive to return.
        #expect(log.firstIndex(of: "return 32")! < log.firstIndex(of: "receive 33")!)
        #expect(log.firstIndex(of: "receive 32")! < log.firstIndex(of: "return 1")!)
    }

    /// Demand is taken before a value is delivered: a subscriber with no demand left does not
    /// receive what it sends from inside `receive`.
    @Test func sendFromInsideReceiveRespectsTheSendersDemand() {
        let subject = IntSubject()
        let sender = subject.record(initialDemand: .max(1), demandPerValue: .max(1))
        let bystander = subject.record()
        sender.onValue = { value in
            if value == 1 { subject.send(2) }
        }
        subject.send(1)
        subject.send(3)
        #expect(sender.values == [1, 3])
        #expect(bystander.values == [2, 1, 3])
    }

    @Test func subscriberCancellingItselfInsideReceiveGetsNothingMore() {
        let subject = IntSubject()
        let quitter = subject.record(cancelAfterValues: 2)
        let other = subject.record()
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(quitter.events == [.subscription, .value(1), .value(2)])
        #expect(other.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    /// A subscriber that joins while a value is being sent does not receive that value.
    @Test func subscriberAddedFromInsideReceiveGetsOnlyLaterValues() {
        let subject = IntSubject()
        let newcomer = RecordingSubscriber<Int, TestError>()
        let host = subject.record()
        host.onValue = { value in
            if value == 1 { subject.subscribe(newcomer) }
        }
        subject.send(1)
        subject.send(2)
        #expect(host.values == [1, 2])
        #expect(newcomer.events == [.subscription, .value(2)])
    }

    @Test func subscribingAgainFromInsideReceiveSubscription() {
        let subject = IntSubject()
        let subscriber = ResubscribingSubscriber(subject: subject, subscriptions: 3)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .subscription, .subscription])
        subject.send(0)
        #expect(subscriber.values == [0, 0, 0])
        subscriber.subscriptions[1].cancel()
        subject.send(1)
        #expect(subscriber.values == [0, 0, 0, 1, 1])
    }

    @Test func completionFromInsideReceiveEndsEverySubscriber() {
        let subject = IntSubject()
        let finisher = subject.record()
        let bystander = subject.record()
        finisher.onValue = { _ in subject.send(completion: .finished) }
        subject.send(1)
        subject.send(2)
        #expect(finisher.events == [.subscription, .value(1), .finished])
        #expect(bystander.completions.count == 1)
        #expect(bystander.events.last == .finished, "nothing after the completion: \(bystander.trace)")
    }

    @Test func sendsAndCompletionsFromInsideReceiveCompletionAreIgnored() {
        let subject = IntSubject()
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        subject.subscribe(
            AnySubscriber(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: {
                    values.append($0); return .none
                },
                receiveCompletion: { completion in
                    completions.append(completion)
                    subject.send(7)
                    subject.send(completion: .failure(.oops))
                }))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(values == [1])
        #expect(completions == [.finished])
    }

    // MARK: Upstream subscriptions

    @Test func upstreamSubscriptionsAreAskedForEverythingOnceSomeSubscriberAsks() {
        let subject = IntSubject()
        let first = RecordingSubscription()
        subject.send(subscription: first)
        #expect(first.events == [])
        let idle = subject.record(initialDemand: nil)
        #expect(first.events == [])
        idle.request(.max(1))
        #expect(first.events == [.request(.unlimited)])
        _ = subject.record(initialDemand: .max(2))
        subject.send(1)
        #expect(first.events == [.request(.unlimited)], "asked only once")
        // Handed over again, and a new one: both are asked at once now.
        subject.send(subscription: first)
        let second = RecordingSubscription()
        subject.send(subscription: second)
        #expect(first.events == [.request(.unlimited), .request(.unlimited)])
        #expect(second.events == [.request(.unlimited)])
    }

    @Test func upstreamSubscriptionsAreCancelledWhenTheSubjectGoesAway() {
        let upstream = RecordingSubscription()
        do {
            let subject = IntSubject()
            for _ in 0..<3 { subject.send(subscription: upstream) }
            #expect(upstream.events == [])
        }
        #expect(upstream.events == [.cancel, .cancel, .cancel])
    }

    // MARK: Threads

    @Test func concurrentSendsWhileSubscribersComeAndGo() {
        SubjectStress.run(PassthroughSubject<Int, Never>(), currentValue: nil)
    }

    /// Two subjects deliver at once on two threads, and each subscriber, inside `receive`, asks or
    /// cancels the other subject's subscriber (what `merge` does: it asks its other upstreams for
    /// more, and cancels them when one fails). Neither call may wait for the other subject's
    /// delivery, or the two threads wait for each other for ever.
    @Test(arguments: [(CrossAction.request, CrossAction.cancel), (.cancel, .cancel), (.request, .request)])
    func subscribersOfTwoSubjectsMayRequestAndCancelEachOtherWhileBothDeliver(first: CrossAction, second: CrossAction) {
        let x = PassthroughSubject<Int, Never>()
        let y = PassthroughSubject<Int, Never>()
        let bothDelivering = Rendezvous(parties: 2)
        let onX = CrossSubscriber(meeting: bothDelivering, action: first)
        let onY = CrossSubscriber(meeting: bothDelivering, action: second)
        x.subscribe(onX)
        y.subscribe(onY)
        onX.other = onY.subscription
        onY.other = onX.subscription
        let (sendX, sendY) = (SubjectHandle(x), SubjectHandle(y))
        let senders = [onAnotherThread { sendX.send(1) }, onAnotherThread { sendY.send(1) }]
        let finished = senders.allSatisfy { $0.wait(timeout: .now() + 30) == .success }
        #expect(finished, "the two deliveries waited for each other")
        #expect(bothDelivering.met, "the two deliveries did not overlap, so the test proved nothing")
        #expect(onX.received.load(ordering: .relaxed) == 1 && onY.received.load(ordering: .relaxed) == 1)
    }
}

enum CrossAction: Sendable, CustomStringConvertible {
    case request, cancel
    var description: String { self == .request ? "request" : "cancel" }
}

/// Lets `parties` threads wait, for at most 5 seconds, until all have arrived.
final class Rendezvous: Sendable {
    private let arrived = Atomic<Int>(0)
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    var met: Bool { arrived.load(ordering: .acquiring) >= parties }

    func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        let deadline = DispatchTime.now() + 5
        while !met, DispatchTime.now() < deadline { sched_yield() }
    }
}

/// Asks for one value; on receiving it, meets the other thread, then requests from or cancels
/// `other` (another subject's subscription).
final class CrossSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    private let meeting: Rendezvous
    private let action: CrossAction
    let received = Atomic<Int>(0)
    private(set) var subscription: (any Subscription)?
    /// Set on the test's thread before any value is sent.
    var other: (any Subscription)?

    init(meeting: Rendezvous, action: CrossAction) {
        self.meeting = meeting
        self.action = action
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.add(1, ordering: .relaxed)
        meeting.arriveAndWait()
        switch action {
        case .request: other?.request(.max(1))
        case .cancel: other?.cancel()
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

// MARK: - Helpers shared by the subject and type-erasure tests

/// An upstream subscription handed to a subject (by `send(subscription:)` or as a subscriber's
/// subscription): it writes down what is asked of it.
final class RecordingSubscription: Subscription, CustomStringConvertible {
    enum Event: Equatable, CustomStringConvertible {
        case request(Subscribers.Demand)
        case cancel

        var description: String {
            switch self {
            case .request(let demand): "request(\(demand))"
            case .cancel: "cancel"
            }
        }
    }

    private(set) var events: [Event] = []

    var description: String { "RecordingSubscription" }

    func request(_ demand: Subscribers.Demand) { events.append(.request(demand)) }

    func cancel() { events.append(.cancel) }
}

/// Subscribes itself to the same subject again from inside `receive(subscription:)` until it
/// holds `subscriptions` subscriptions. It asks for everything before writing the subscription
/// down, so a value delivered from inside `request` is recorded before its subscription.
final class ResubscribingSubscriber<Upstream: Subject>: Subscriber
where Upstream.Output == Int, Upstream.Failure == TestError {
    typealias Input = Int
    typealias Failure = TestError

    private let subject: Upstream
    private let wanted: Int
    private(set) var subscriptions: [any Subscription] = []
    private(set) var events: [RecordingSubscriber<Int, TestError>.Event] = []

    init(subject: Upstream, subscriptions: Int) {
        self.subject = subject
        wanted = subscriptions
    }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
        events.append(.subscription)
        subscriptions.append(subscription)
        if subscriptions.count < wanted { subject.subscribe(self) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        events.append(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        switch completion {
        case .finished: events.append(.finished)
        case .failure(let error): events.append(.failure(error))
        }
    }

    var values: [Int] { events.compactMap { if case .value(let value) = $0 { value } else { nil } } }
}

// MARK: - Threads

/// Drives one subject from several threads at once and checks, subscriber by subscriber, the
/// rules that hold whatever the interleaving:
/// - a subscription first, then values (never more than demanded, none twice, each sender's
///   values in the order it sent them), then at most one completion, then nothing;
/// - no two calls into one subscriber at the same time;
/// - nothing after a subscriber cancels itself from inside `receive`; after a cancel from another
///   thread returns, at most the one delivery that was already under way;
/// - no value lost for subscribers that stay, and exactly one completion for every subscriber
///   that did not cancel.
enum SubjectStress {
    static let senders = 4
    static let rounds = 100
    static let batch = 20
    static let valuesPerSender = rounds * batch

    /// `currentValue`: for a `CurrentValueSubject`, its initial value (which a subscriber may get
    /// first, and once more if a send races with its first request: see `duplicates`).
    static func run<S: Subject>(_ subject: S, currentValue: Int?, sourceLocation: SourceLocation = #_sourceLocation)
    where S.Output == Int, S.Failure == Never {
        let shared = SubjectHandle(subject)
        let probes = ProbeList()
        let stayers = (0..<2).map { _ in ThreadProbe(initialDemand: .unlimited) }
        for probe in stayers { subject.subscribe(probe) }

        // Phase 1: four senders, each alternating a batch of sends with attaching (and maybe
        // cancelling) one subscriber, so that every attach and cancel races with the other
        // threads' sends. (`concurrentPerform` runs as many iterations at once as there are
        // cores: no iteration may wait for another.)
        DispatchQueue.concurrentPerform(iterations: senders) { worker in
            for round in 0..<rounds {
                for index in 0..<batch { shared.send(worker * valuesPerSender + round * batch + index) }
                churn(round: round + worker, into: shared, probes: probes)
            }
        }
        // Phase 2: the four senders race to complete while subscribers keep arriving (each one
        // lingers in `receive(subscription:)`, so a completion has a chance to overtake it).
        DispatchQueue.concurrentPerform(iterations: senders) { worker in
            for step in 0..<40 {
                let probe = ThreadProbe(initialDemand: .unlimited)
                probes.append(probe)
                shared.subscribe(probe)
                if step == 20 {
                    shared.send(1_000_000 + worker)
                    shared.finish()
                }
            }
        }
        let late = ThreadProbe(initialDemand: nil)
        subject.subscribe(late)
        #expect(
            late.report.values.isEmpty && late.report.completions == 1, "late subscriber: \(late.report)",
            sourceLocation: sourceLocation)

        let sent = Set(0..<(senders * valuesPerSender))
        for probe in stayers {
            let report = probe.report
            #expect(
                sent.isSubset(of: Set(report.values)), "a staying subscriber lost values",
                sourceLocation: sourceLocation)
            for sender in 0..<senders {
                let fromSender = report.values.filter {
                    (0..<senders * valuesPerSender).contains($0) && $0 / valuesPerSender == sender
                }
                #expect(
                    fromSender == fromSender.sorted(), "sender \(sender)'s values out of order",
                    sourceLocation: sourceLocation)
            }
        }
        var cancelledInside = 0
        var cancelledOutside = 0
        for probe in stayers + probes.all {
            let report = probe.report
            #expect(report.violations.isEmpty, "\(report.violations)", sourceLocation: sourceLocation)
            #expect(
                duplicates(in: report.values, currentValue: currentValue).isEmpty,
                "delivered twice: \(duplicates(in: report.values, currentValue: currentValue))",
                sourceLocation: sourceLocation)
            #expect(report.completions <= 1, sourceLocation: sourceLocation)
            switch probe.plan {
            case .stay:
                #expect(
                    report.completions == 1, "a subscriber that stayed missed the completion",
                    sourceLocation: sourceLocation)
            case .cancelInsideAfter(let count):
                if report.cancelledInside {
                    cancelledInside += 1
                    #expect(report.values.count == count && report.completions == 0, sourceLocation: sourceLocation)
                }
            case .cancelOutside:
                cancelledOutside += 1
                #expect(
                    report.eventsAfterOutsideCancel <= 1, "\(report.eventsAfterOutsideCancel) events after cancel",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(
            cancelledInside > 0 && cancelledOutside > 0, "the churn should have cancelled subscribers both ways",
            sourceLocation: sourceLocation)
    }

    /// One attach, with a plan that depends on the round.
    private static func churn(round: Int, into subject: SubjectHandle, probes: ProbeList) {
        let probe: ThreadProbe
        switch round % 4 {
        case 0: probe = ThreadProbe(initialDemand: .unlimited)
        case 1: probe = ThreadProbe(initialDemand: .max(3), demandPerValue: .max(1), plan: .cancelInsideAfter(5))
        case 2: probe = ThreadProbe(initialDemand: .max(2), plan: .cancelOutside)
        default: probe = ThreadProbe(initialDemand: .unlimited, plan: .cancelOutside)
        }
        probes.append(probe)
        subject.subscribe(probe)
        if case .cancelOutside = probe.plan {
            for _ in 0..<(round % 7) * 50 { _ = probe.report.values.count }
            probe.cancelFromOutside()
        }
    }

    /// Values that arrived more than once. A `CurrentValueSubject` may deliver its first value
    /// twice: once as the current value on the first request, and once more if that value was
    /// being sent at that very moment (as in Combine, the value is stored before it is offered).
    static func duplicates(in values: [Int], currentValue: Int?) -> [Int] {
        var seen: Set<Int> = []
        var repeated: [Int] = []
        var firstValueRaceSeen = false
        for value in values where !seen.insert(value).inserted {
            if currentValue != nil, value == values[0], values[0] != currentValue, !firstValueRaceSeen {
                firstValueRaceSeen = true
            } else {
                repeated.append(value)
            }
        }
        return repeated
    }
}

/// A subject shared with the worker threads, its type erased so that the threads' closures are
/// not generic. Subjects are thread-safe, but not `Sendable`.
struct SubjectHandle: @unchecked Sendable {
    let send: (Int) -> Void
    let finish: () -> Void
    let subscribe: (ThreadProbe) -> Void

    init<S: Subject>(_ subject: S) where S.Output == Int, S.Failure == Never {
        send = { subject.send($0) }
        finish = { subject.send(completion: .finished) }
        subscribe = { subject.subscribe($0) }
    }
}

/// The probes attached by the worker threads.
final class ProbeList: @unchecked Sendable {
    private let probes = TestLock<[ThreadProbe]>([])
    func append(_ probe: ThreadProbe) { probes.withLock { $0.append(probe) } }
    var all: [ThreadProbe] { probes.withLock { $0 } }
}

/// A subscriber for the threaded tests. It checks the rules as events arrive, from any thread,
/// and writes down every broken rule instead of trapping, so the test can report them.
final class ThreadProbe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    enum Plan {
        case stay
        case cancelInsideAfter(Int)
        case cancelOutside
    }

    struct Report: CustomStringConvertible {
        var subscribed = false
        var values: [Int] = []
        var completions = 0
        /// Demand the subject still owes, as this subscriber counts it (never below the subject's).
        var outstanding = Subscribers.Demand.none
        var cancelledInside = false
        var cancelledOutside = false
        var eventsAfterOutsideCancel = 0
        var violations: [String] = []

        var description: String { "\(values.count) values, \(completions) completions, violations \(violations)" }
    }

    let plan: Plan
    private let initialDemand: Subscribers.Demand?
    private let demandPerValue: Subscribers.Demand
    private let state = TestLock(Report())
    private let subscription = TestLock<(any Subscription)?>(nil)
    /// Set while a call into this subscriber is under way: a second call finding it set means
    /// two threads were inside the subscriber at once.
    private let inFlight = Atomic<Bool>(false)

    init(initialDemand: Subscribers.Demand?, demandPerValue: Subscribers.Demand = .none, plan: Plan = .stay) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.plan = plan
    }

    var report: Report { state.withLock { $0 } }

    func receive(subscription: any Subscription) {
        enter()
        state.withLock { report in
            if report.subscribed { report.violations.append("second subscription") }
            report.subscribed = true
            report.outstanding = initialDemand ?? .none
        }
        self.subscription.withLock { $0 = subscription }
        linger(20_000)
        leave()
        // Outside the checked stretch: a current value may arrive from inside `request`.
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter()
        defer { leave() }
        let cancelNow = state.withLock { report -> Bool in
            if !report.subscribed { report.violations.append("value \(input) before the subscription") }
            if report.completions > 0 { report.violations.append("value \(input) after the completion") }
            if report.cancelledInside { report.violations.append("value \(input) after cancel") }
            if report.cancelledOutside { report.eventsAfterOutsideCancel += 1 }
            if report.outstanding == .none {
                report.violations.append("value \(input) beyond demand")
            } else {
                report.outstanding -= 1
            }
            report.values.append(input)
            if case .cancelInsideAfter(let count) = plan, report.values.count == count {
                report.cancelledInside = true
                return true
            }
            report.outstanding += demandPerValue
            return false
        }
        linger(20)
        if cancelNow {
            subscription.withLock { $0 }?.cancel()
            return .none
        }
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        defer { leave() }
        state.withLock { report in
            if !report.subscribed { report.violations.append("completion before the subscription") }
            if report.cancelledInside { report.violations.append("completion after cancel") }
            if report.cancelledOutside { report.eventsAfterOutsideCancel += 1 }
            report.completions += 1
        }
    }

    /// Cancels from the calling thread, then marks the moment so later deliveries can be counted.
    func cancelFromOutside() {
        subscription.withLock { $0 }?.cancel()
        state.withLock { $0.cancelledOutside = true }
    }

    private func enter() {
        if inFlight.exchange(true, ordering: .acquiringAndReleasing) {
            state.withLock { $0.violations.append("two calls into the subscriber at once") }
        }
    }

    private func leave() { inFlight.store(false, ordering: .releasing) }

    /// Stays inside the subscriber a little, so that an overlapping call would find the flag set.
    private func linger(_ steps: Int) {
        for _ in 0..<steps { _ = inFlight.load(ordering: .relaxed) }
    }
}
