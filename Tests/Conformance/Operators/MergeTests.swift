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

/// Test publishers to merge, and the ways of merging them: every arity runs the same checks.
private typealias Upstream = TestPublisher<Int, TestError>

private enum Shape: CaseIterable, CustomStringConvertible {
    case merge2, merge4, merge8, mergeMany

    var count: Int {
        switch self {
        case .merge2: 2
        case .merge4: 4
        case .merge8: 8
        case .mergeMany: 3
        }
    }

    var description: String {
        switch self {
        case .merge2: "Merge"
        case .merge4: "Merge4"
        case .merge8: "Merge8"
        case .mergeMany: "MergeMany of 3"
        }
    }

    /// The merge of `ups` (exactly `count` of them), as the concrete Combine type, erased.
    func merge(_ ups: [Upstream]) -> AnyPublisher<Int, TestError> {
        switch self {
        case .merge2:
            AnyPublisher(Publishers.Merge(ups[0], ups[1]))
        case .merge4:
            AnyPublisher(Publishers.Merge4(ups[0], ups[1], ups[2], ups[3]))
        case .merge8:
            AnyPublisher(Publishers.Merge8(ups[0], ups[1], ups[2], ups[3], ups[4], ups[5], ups[6], ups[7]))
        case .mergeMany:
            AnyPublisher(Publishers.MergeMany(ups))
        }
    }

    func make() -> ([Upstream], AnyPublisher<Int, TestError>) {
        let ups = (0..<count).map { _ in Upstream() }
        return (ups, merge(ups))
    }
}

@Suite struct MergeTests {
    // MARK: Types and overloads

    @Test func overloadsReturnCombinesTypes() {
        let a = Just(1)
        let b = [2, 3].publisher
        let c = Empty<Int, Never>()
        let merge: Publishers.Merge<Just<Int>, Publishers.Sequence<[Int], Never>> = a.merge(with: b)
        let merge3: Publishers.Merge3<Just<Int>, Publishers.Sequence<[Int], Never>, Empty<Int, Never>> = merge.merge(
            with: c)
        let merge4: Publishers.Merge4<Just<Int>, Publishers.Sequence<[Int], Never>, Empty<Int, Never>, Just<Int>> =
            merge3.merge(with: a)
        let merge8:
            Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
                a.merge(with: a, a, a, a, a, a, a)
        let fromMerge:
            Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
                Publishers.Merge(a, a).merge(with: a, a, a, a, a, a)
        let many: Publishers.MergeMany<Just<Int>> = a.merge(with: Just(2))
        let more: Publishers.MergeMany<Just<Int>> = many.merge(with: Just(3))
        #expect(more.publishers == [Just(1), Just(2), Just(3)])
        #expect(Publishers.MergeMany([Just(1), Just(2)]) == Publishers.MergeMany(Just(1), Just(2)))
        #expect(merge3.a == Just(1) && merge3.c == Empty())
        #expect(merge4.d == Just(1))
        #expect(merge8 == fromMerge)
        #expect(Publishers.Merge(Just(1), Just(2)) != Publishers.Merge(Just(1), Just(3)))
        var values: [Int] = []
        _ = merge4.sink { values.append($0) }
        #expect(values == [1, 2, 3, 1])
        values = []
        _ = more.sink { values.append($0) }
        #expect(values == [1, 2, 3])
    }

    // MARK: Values and completion

    @Test(arguments: Shape.allCases)
    fileprivate func valuesInterleaveAndTheMergeFinishesWhenAllUpstreamsHave(_ shape: Shape) {
        let (ups, merge) = shape.make()
        let recorder = merge.record()
        for up in ups { #expect(up.events == [.subscribe, .request(.unlimited)]) }
        for (index, up) in ups.enumerated() { #expect(up.send(index) == .none) }
        for (index, up) in ups.enumerated().reversed() { up.send(100 + index) }
        for up in ups.dropLast() { up.send(completion: .finished) }
        #expect(recorder.completions.isEmpty)
        ups.last!.send(7)
        ups.last!.send(completion: .finished)
        let expected = Array(0..<shape.count) + (0..<shape.count).reversed().map { 100 + $0 } + [7]
        #expect(recorder.values == expected)
        #expect(recorder.completions == [.finished])
        for up in ups { #expect(up.events == [.subscribe, .request(.unlimited)]) }
    }

    @Test func downstreamIsSubscribedFirstThenEachUpstreamInOrder() {
        let log = TrafficLog()
        let a = Upstream(), b = Upstream(), c = Upstream()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(5))
        Publishers.Merge3(a.logging(as: "a", into: log), b.logging(as: "b", into: log), c.logging(as: "c", into: log))
            .subscribe(subscriber)
        #expect(
            log.entries == [
                "downstream subscription",
                "a subscribe", "a request(max(1))",
                "b subscribe", "b request(max(1))",
                "c subscribe", "c request(max(1))",
            ])
    }

    @Test func theSubscriptionDescribesItselfAsMerge() {
        for shape in Shape.allCases {
            let recorder = shape.make().1.record()
            #expect(recorder.subscriptionDescriptions == ["Merge"], "\(shape)")
        }
    }

    @Test func synchronousSourcesRunOneAfterTheOther() {
        let recorder = [1, 2, 3].publisher.merge(with: [4, 5].publisher, Just(6)).record()
        #expect(
            recorder.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .value(6), .finished,
            ])
    }

    @Test func synchronousSourcesUnderLimitedDemand() {
        let recorder = Publishers.Merge([1, 2, 3].publisher, [4, 5].publisher).record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completions.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .finished])
    }

    @Test func aMergeOfNothingFinishesAtOnce() {
        let recorder = Publishers.MergeMany<Upstream>([]).record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func aFinishedUpstreamsValuesAreNotDelivered() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record()
        a.sendKeepingSubscriber(completion: .finished)
        a.sendKeepingSubscriber(1)
        a.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription])
        b.send(2)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    // MARK: Demand

    @Test(arguments: Shape.allCases)
    fileprivate func finiteDemandAsksEachUpstreamForOneValueAtATime(_ shape: Shape) {
        let (ups, merge) = shape.make()
        let recorder = merge.record(initialDemand: .max(10))
        for up in ups { #expect(up.events == [.subscribe, .request(.max(1))]) }
        // Each delivered value lets its upstream send one more.
        for (index, up) in ups.enumerated() { #expect(up.send(index) == .max(1)) }
        #expect(recorder.values == Array(0..<shape.count))
        recorder.request(.max(3))
        for up in ups { #expect(up.events == [.subscribe, .request(.max(1))]) }
    }

    @Test func zeroDemandHoldsValuesAndDeliversThemInUpstreamOrder() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: nil)
        #expect(a.events == [.subscribe, .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1))])
        #expect(b.send(2) == .none)
        #expect(a.send(1) == .none)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1))])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2])
        #expect(b.events == [.subscribe, .request(.max(1)), .request(.max(1))])
    }

    @Test func demandRunsOutAndTheNextValueWaits() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: .max(1))
        // The delivered value still earns its upstream one more; the next one waits.
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .none)
        #expect(a.send(3) == .none)
        #expect(recorder.values == [1])
        recorder.request(.max(5))
        #expect(recorder.values == [1, 3, 2])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(a.send(4) == .max(1))
        #expect(recorder.values == [1, 3, 2, 4])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: .max(1), demandPerValue: .max(1))
        for value in 1...5 { #expect((value.isMultiple(of: 2) ? b : a).send(value) == .max(1)) }
        #expect(recorder.values == [1, 2, 3, 4, 5])
    }

    @Test func unlimitedDemandLaterAsksEveryUpstreamForEverything() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: .max(1))
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .none)
        recorder.request(.unlimited)
        #expect(recorder.values == [1, 2])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.unlimited)])
        #expect(b.events == [.subscribe, .request(.max(1)), .request(.unlimited)])
        #expect(a.send(3) == .none)
        #expect(b.send(4) == .none)
        recorder.request(.max(1))
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.unlimited)])
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func anUpstreamSubscribedAfterUnlimitedDemandIsAskedForEverything() {
        let recorder = Publishers.Merge(Just(1), Just(2)).record(initialDemand: .max(1))
        #expect(recorder.values == [1])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        let a = Upstream(), b = Upstream()
        _ = Publishers.Merge(a, b).record(initialDemand: .unlimited)
        #expect(a.events == [.subscribe, .request(.unlimited)])
    }

    @Test func theMergeFinishesOnlyAfterWaitingValues() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: nil)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(a.events == [.subscribe, .request(.max(1))])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            Publishers.Merge(Just(1), Just(2)).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Merge's subscription")
    }

    // MARK: Failure and cancel

    @Test(arguments: Shape.allCases)
    fileprivate func aFailureFromAnyUpstreamCancelsEveryUpstream(_ shape: Shape) {
        for failing in 0..<shape.count {
            let (ups, merge) = shape.make()
            let recorder = merge.record()
            ups[0].send(1)
            ups[failing].send(completion: .failure(.oops))
            #expect(recorder.events == [.subscription, .value(1), .failure(.oops)], "\(shape), upstream \(failing)")
            for (index, up) in ups.enumerated() {
                #expect(
                    up.events == [.subscribe, .request(.unlimited), .cancel],
                    "\(shape), failing \(failing), upstream \(index)")
            }
            // Nothing after the failure, from anyone.
            for up in ups { up.sendKeepingSubscriber(2) }
            ups[(failing + 1) % shape.count].sendKeepingSubscriber(completion: .finished)
            #expect(recorder.events.count == 3)
        }
    }

    @Test func aFailureDropsWaitingValues() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: nil)
        a.send(1)
        b.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .failure(.other)])
        #expect(a.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test(arguments: Shape.allCases)
    fileprivate func cancelReachesEveryUpstream(_ shape: Shape) {
        let (ups, merge) = shape.make()
        let recorder = merge.record(initialDemand: .max(3))
        ups[0].send(1)
        recorder.cancel()
        for up in ups { #expect(up.events == [.subscribe, .request(.max(1)), .cancel]) }
        for up in ups { up.sendKeepingSubscriber(2) }
        for up in ups { up.sendKeepingSubscriber(completion: .finished) }
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func aLateSecondSubscriptionIsCancelled() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record()
        let extra = Upstream()
        let second = extra.makeSubscription()
        // `a`'s current subscriber is the merge's inner subscriber for `a`.
        a.subscriber?.receive(subscription: second)
        #expect(extra.events == [.cancel])
        recorder.cancel()
        #expect(a.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func operatorLaws() {
        OperatorLaws.check { Publishers.Merge($0, Empty<Int, TestError>()) }
        OperatorLaws.check { Publishers.MergeMany([$0]) }
        OperatorLaws.check { $0.merge(with: Empty(), Empty(), Empty()) }
    }

    // MARK: Re-entrancy

    @Test func requestFromInsideReceiveAddsDemandWithoutUpstreamTraffic() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        #expect(a.send(3) == .max(1))
        #expect(recorder.values == [1, 2, 3])
        #expect(a.events == [.subscribe, .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1))])
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record(cancelAfterValues: 1)
        #expect(b.send(1) == .none)
        #expect(a.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
        a.sendKeepingSubscriber(2)
        #expect(recorder.values == [1])
    }

    /// One upstream fails while the other's value is being delivered, and downstream cancels from
    /// inside that same `receive`: once its cancel has returned, it hears nothing more.
    @Test func aFailureDuringADeliveryIsNotDeliveredAfterACancelFromInsideIt() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record()
        var eventsAtCancel: Int?
        recorder.onValue = { _ in
            b.send(completion: .failure(.oops))
            recorder.cancel()
            eventsAtCancel = recorder.events.count
        }
        a.send(1)
        #expect(recorder.events.count == eventsAtCancel)
        #expect(Array(recorder.events.prefix(2)) == [.subscription, .value(1)])
        #expect(a.events.last == .cancel)
    }

    @Test func aValueSentFromInsideReceiveIsDeliveredSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var depth = 0
        var maxDepth = 0
        var values: [Int] = []
        let cancellable = a.merge(with: b).sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            values.append(value)
            if value == 1 { b.send(10) }
            if value == 10 { a.send(2) }
            depth -= 1
        }
        a.send(1)
        #expect(values == [1, 10, 2])
        #expect(maxDepth == 1)
        cancellable.cancel()
    }

    @Test func finishingFromInsideReceive() {
        let a = Upstream(), b = Upstream()
        let recorder = Publishers.Merge(a, b).record()
        recorder.onValue = { value in
            if value == 1 { a.send(completion: .finished) }
            if value == 2 { b.send(completion: .finished) }
        }
        a.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        b.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    // MARK: Threads

    @Test func fourThreadsSendingIntoFourSubjects() {
        let producers = 4
        let perProducer = 20_000
        for round in 0..<3 {
            let subjects = (0..<producers).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = ProducerRecorder(producers: producers)
            subjects[0].merge(with: subjects[1], subjects[2], subjects[3]).subscribe(recorder)
            let sendable = SendableSubjects(subjects: subjects)
            DispatchQueue.concurrentPerform(iterations: producers) { producer in
                for sequence in 0..<perProducer {
                    sendable.subjects[producer].send(producer * 1_000_000 + sequence)
                }
                sendable.subjects[producer].send(completion: .finished)
            }
            #expect(recorder.received.load(ordering: .relaxed) == producers * perProducer, "round \(round)")
            #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0, "round \(round)")
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0, "round \(round)")
            #expect(recorder.completions.load(ordering: .relaxed) == 1, "round \(round)")
            #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0, "round \(round)")
            #expect(recorder.allSeen(perProducer: perProducer), "round \(round)")
        }
    }

    @Test func threadsSendingWhileDownstreamAsksOneAtATime() {
        // Demand arrives from another thread, one value at a time; the upstreams send only what
        // they were asked for, so nothing may be dropped.
        let producers = 4
        let perProducer = 2_000
        let upstreams = (0..<producers).map { CountingSource(producer: $0, count: perProducer) }
        let recorder = ProducerRecorder(producers: producers, initialDemand: .none)
        Publishers.MergeMany(upstreams).subscribe(recorder)
        let subscription = recorder.subscription!
        let handle = MergeSubscriptionBox(subscription: subscription)
        let sources = SendableSources(sources: upstreams)
        // Real threads, all at once: the producers wait for demand that only the last one gives.
        onThreads(producers + 1) { index in
            if index == producers {
                for _ in 0..<(producers * perProducer) { handle.subscription.request(.max(1)) }
            } else {
                sources.sources[index].run()
            }
        }
        #expect(recorder.received.load(ordering: .relaxed) == producers * perProducer)
        #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.allSeen(perProducer: perProducer))
    }
}

private struct MergeSubscriptionBox: @unchecked Sendable {
    let subscription: any Subscription
}

private struct SendableSources: @unchecked Sendable {
    let sources: [CountingSource]
}

/// Subjects are not `Sendable` in Combine's API; the test hands them to other threads on purpose.
private struct SendableSubjects: @unchecked Sendable {
    let subjects: [PassthroughSubject<Int, Never>]
}

/// Counts what arrives from each producer (value = producer * 1_000_000 + sequence number), checks
/// each producer's order and that no two calls into it overlap.
private final class ProducerRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let inFlight = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let outOfOrder = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)
    private let initialDemand: Subscribers.Demand
    /// The next sequence number expected from each producer; only touched inside `receive`.
    private var next: [Int]
    private(set) var subscription: (any Subscription)?

    init(producers: Int, initialDemand: Subscribers.Demand = .unlimited) {
        next = Array(repeating: 0, count: producers)
        self.initialDemand = initialDemand
    }

    private func enter() {
        if inFlight.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
    }

    private func leave() { inFlight.store(false, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter()
        defer { leave() }
        if completions.load(ordering: .relaxed) > 0 { afterCompletion.add(1, ordering: .relaxed) }
        let producer = input / 1_000_000
        if input % 1_000_000 != next[producer] { outOfOrder.add(1, ordering: .relaxed) }
        next[producer] = input % 1_000_000 + 1
        received.add(1, ordering: .relaxed)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        completions.add(1, ordering: .relaxed)
        leave()
    }

    /// Whether every producer's last value arrived (with the order check: all of them, once).
    func allSeen(perProducer: Int) -> Bool {
        inFlight.load(ordering: .acquiring) ? false : next.allSatisfy { $0 == perProducer }
    }
}

/// A publisher for one subscriber that sends `count` numbered values from whichever thread calls
/// `run()`, each only against demand it was given (waiting for it), then finishes.
private final class CountingSource: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    private let producer: Int
    private let count: Int
    private let demand = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private var subscriber: AnySubscriber<Int, Never>?

    init(producer: Int, count: Int) {
        self.producer = producer
        self.count = count
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: Ticket(source: self))
    }

    func run() {
        guard let subscriber else { return }
        for sequence in 0..<count {
            while demand.load(ordering: .acquiring) == 0 {
                if cancelled.load(ordering: .relaxed) { return }
            }
            demand.subtract(1, ordering: .relaxed)
            let more = subscriber.receive(producer * 1_000_000 + sequence)
            if let finite = more.max, finite > 0 { demand.add(finite, ordering: .relaxed) }
            if more == .unlimited { demand.add(Int.max / 2, ordering: .relaxed) }
        }
        subscriber.receive(completion: .finished)
    }

    private final class Ticket: Subscription {
        let source: CountingSource
        init(source: CountingSource) { self.source = source }

        func request(_ demand: Subscribers.Demand) {
            source.demand.add(demand.max ?? Int.max / 2, ordering: .releasing)
        }

        func cancel() { source.cancelled.store(true, ordering: .relaxed) }
    }
}
