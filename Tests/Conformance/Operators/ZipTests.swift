// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

@Suite struct ZipTests {
    typealias Upstream = TestPublisher<Int, TestError>

    static func pairs(_ recorder: RecordingSubscriber<(Int, Int), TestError>) -> [[Int]] {
        recorder.values.map { [$0.0, $0.1] }
    }

    // MARK: Values and completion

    @Test func pairsTheIthValuesOfEachUpstream() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        #expect(a.send(1) == .none)
        #expect(a.send(2) == .none)
        #expect(Self.pairs(recorder) == [])
        #expect(b.send(10) == .none)
        #expect(Self.pairs(recorder) == [[1, 10]])
        #expect(b.send(20) == .none)
        #expect(b.send(30) == .none)
        #expect(a.send(3) == .none)
        #expect(Self.pairs(recorder) == [[1, 10], [2, 20], [3, 30]])
        #expect(recorder.subscriptionDescriptions == ["Zip"])
    }

    @Test func zip3AndZip4WithAndWithoutTransform() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let three = a.zip(b, c).map { [$0.0, $0.1, $0.2] }.record()
        a.send(1); b.send(2); c.send(3); a.send(4); b.send(5)
        #expect(three.values == [[1, 2, 3]])
        c.send(6)
        #expect(three.values == [[1, 2, 3], [4, 5, 6]])
        // A TestPublisher talks to its latest subscriber: each chain below gets fresh traffic.
        let summed = a.zip(b, c) { $0 * 100 + $1 * 10 + $2 }.record()
        a.send(1); b.send(2); c.send(3)
        #expect(summed.values == [123])
        let four = a.zip(b, c, d).map { [$0.0, $0.1, $0.2, $0.3] }.record()
        a.send(1); b.send(2); c.send(3)
        #expect(four.values == [])
        d.send(4)
        #expect(four.values == [[1, 2, 3, 4]])
        let joined = a.zip(b, c, d) { "\($0)\($1)\($2)\($3)" }.record()
        d.send(4); c.send(3); b.send(2); a.send(1)
        #expect(joined.values == ["1234"])
        let two = a.zip(b) { $0 - $1 }.record()
        a.send(10); b.send(3)
        #expect(two.values == [7])
    }

    /// Upstreams that fail as they are subscribed, before downstream has its subscription: the
    /// first failure waits for it, and the second one is dropped rather than delivered at once.
    @Test func theFirstOfFailuresBeforeTheSubscriptionIsDeliveredAfterIt() {
        // Erased, so that the upstreams are subscribed rather than fused.
        let oops = Fail<Int, TestError>(error: .oops).eraseToAnyPublisher()
        let other = Fail<Int, TestError>(error: .other).eraseToAnyPublisher()
        #expect(oops.zip(other).map { $0 + $1 }.record().events == [.subscription, .failure(.oops)])
        #expect(other.combineLatest(oops).map { $0 + $1 }.record().events == [.subscription, .failure(.other)])
    }

    @Test func synchronousSourcesPairUpAndFinish() {
        let recorder = [1, 2, 3].publisher.zip(["a", "b"].publisher).map { "\($0)\($1)" }.record()
        #expect(recorder.events == [.subscription, .value("1a"), .value("2b"), .finished])
        let three = Publishers.Zip3([1, 2].publisher, [3, 4].publisher, [5, 6, 7].publisher)
            .map { $0 + $1 + $2 }.record()
        #expect(three.events == [.subscription, .value(9), .value(12), .finished])
        let four = Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)).map { [$0, $1, $2, $3] }.record()
        #expect(four.events == [.subscription, .value([1, 2, 3, 4]), .finished])
    }

    @Test func synchronousSourcesHonourLimitedDemand() {
        let recorder = (1...5).publisher.zip((10...15).publisher) { $0 + $1 }.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [11, 13])
        recorder.request(.max(3))
        #expect(
            recorder.events == [.subscription, .value(11), .value(13), .value(15), .value(17), .value(19), .finished])
    }

    /// The tuple that ends the zip (its other upstream has finished with nothing left): the demand
    /// downstream returns for it is not passed upstream; the running upstream is cancelled.
    @Test func demandReturnedForTheLastTupleIsNotAskedOfUpstream() {
        var traffic: [String] = []
        let recorder = CurrentValueSubject<Int, TestError>(4)
            .handleEvents(
                receiveCancel: { traffic.append("cancel") }, receiveRequest: { traffic.append("request(\($0))") }
            )
            .zip(Just(0).setFailureType(to: TestError.self)).map { $0 * 100 + $1 }
            .record(initialDemand: .unlimited, demandPerValue: .max(3))
        #expect(recorder.events == [.subscription, .value(400), .finished])
        #expect(traffic == ["request(unlimited)", "cancel"])
    }

    /// The value that makes the last tuple: the stream ends inside its `receive`, so the upstream
    /// that sent it (cancelled by then) is answered with no demand, whatever downstream returned.
    /// Found by the differential fuzzer: the fast zip answered `.max(2)`, the reference `.none`.
    @Test func theSenderOfTheLastTupleIsAnsweredWithNoDemand() {
        let upstream = Upstream()
        let recorder = upstream.zip(Just(0).setFailureType(to: TestError.self)).map { $0 * 100 + $1 }
            .record(initialDemand: .unlimited, demandPerValue: .max(2))
        #expect(upstream.send(4) == .none)
        #expect(recorder.events == [.subscription, .value(400), .finished])
    }

    @Test func publicPropertiesAndEquatable() {
        let zip = Publishers.Zip(Just(1), Just(2))
        #expect(zip.a == Just(1) && zip.b == Just(2))
        #expect(zip == Publishers.Zip(Just(1), Just(2)))
        #expect(zip != Publishers.Zip(Just(1), Just(3)))
        #expect(Publishers.Zip3(Just(1), Just(2), Just(3)) == Just(1).zip(Just(2), Just(3)))
        #expect(Publishers.Zip4(Just(1), Just(2), Just(3), Just(4)) != Just(1).zip(Just(2), Just(3), Just(5)))
        let four = Just(1).zip(Just(2), Just(3), Just(4))
        #expect(four.c == Just(3) && four.d == Just(4))
    }

    // MARK: Demand

    @Test func downstreamDemandGoesToEveryUpstreamAsItComes() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = a.zip(b, c).record(initialDemand: .max(2))
        for up in [a, b, c] { #expect(up.events == [.subscribe, .request(.max(2))]) }
        recorder.request(.max(3))
        for up in [a, b, c] { #expect(up.events == [.subscribe, .request(.max(2)), .request(.max(3))]) }
        recorder.request(.unlimited)
        for up in [a, b, c] {
            #expect(up.events == [.subscribe, .request(.max(2)), .request(.max(3)), .request(.unlimited)])
        }
    }

    @Test func unlimitedDemandIsAskedOnce() {
        let a = Upstream(), b = Upstream()
        _ = a.zip(b).record()
        for value in 1...5 {
            a.send(value)
            b.send(value)
        }
        #expect(a.events == [.subscribe, .request(.unlimited)])
        #expect(b.events == [.subscribe, .request(.unlimited)])
    }

    @Test func zeroDemandAsksNothingAndDeliversNothing() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: nil)
        a.send(1)
        b.send(2)
        #expect(recorder.events.count == 1)
        #expect(a.events == [.subscribe] && b.events == [.subscribe])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[1, 2]])
        #expect(a.events == [.subscribe, .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1))])
    }

    @Test func valuesBeyondTheDemandWaitForTheNextRequest() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: .max(1))
        a.send(100)
        b.send(1)
        a.send(200)
        a.send(300)
        b.send(2)
        b.send(3)
        #expect(Self.pairs(recorder) == [[100, 1]])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[100, 1], [200, 2]])
        recorder.request(.max(5))
        #expect(Self.pairs(recorder) == [[100, 1], [200, 2], [300, 3]])
        a.send(400)
        b.send(4)
        #expect(Self.pairs(recorder) == [[100, 1], [200, 2], [300, 3], [400, 4]])
    }

    @Test func demandReturnedByDownstreamGoesBackToTheUpstreamThatCompletedTheTuple() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = a.zip(b, c).map { $0 + $1 + $2 }.record(initialDemand: .max(1), demandPerValue: .max(2))
        #expect(a.send(1) == .none)
        #expect(c.send(1) == .none)
        #expect(b.send(1) == .max(2))
        #expect(recorder.values == [3])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(2))])
        #expect(b.events == [.subscribe, .request(.max(1))])
        #expect(c.events == [.subscribe, .request(.max(1)), .request(.max(2))])
    }

    @Test func requestFromInsideReceiveIsReturnedToTheSendingUpstream() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(666)) }
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .max(666))
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(666))])
        #expect(b.events == [.subscribe, .request(.max(1))])
    }

    @Test func valueFromInsideReceiveIsQueuedNotDeliveredReentrantly() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        var nested = false
        recorder.onValue = { _ in
            guard !nested else { return }
            nested = true
            #expect(a.send(2) == .none)
            #expect(b.send(20) == .none)
            // Queued: the tuple goes out after this receive returns.
            #expect(recorder.values.count == 1)
        }
        a.send(1)
        b.send(10)
        #expect(Self.pairs(recorder) == [[1, 10], [2, 20]])
    }

    @Test func requestThatAnUpstreamAnswersSynchronouslyDeliversInOrder() {
        let recorder = Publishers.Zip(Just(1), [7, 8].publisher).map { $0 + $1 }.record(initialDemand: nil)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(8), .finished])
    }

    // MARK: Completion

    @Test func anUpstreamThatFinishesWithNothingQueuedFinishesAtOnceAndCancelsTheOthers() {
        for finishing in 0..<4 {
            let ups = (0..<4).map { _ in Upstream() }
            let recorder = ups[0].zip(ups[1], ups[2], ups[3]).map { $0 + $1 + $2 + $3 }.record()
            for (index, up) in ups.enumerated() where index != finishing { up.send(5) }
            ups[finishing].send(completion: .finished)
            #expect(recorder.events == [.subscription, .finished], "lane \(finishing)")
            for (index, up) in ups.enumerated() {
                let expected: [Upstream.Event] =
                    index == finishing
                    ? [.subscribe, .request(.unlimited)] : [.subscribe, .request(.unlimited), .cancel]
                #expect(up.events == expected, "lane \(index) when lane \(finishing) finishes")
            }
        }
    }

    @Test func anUpstreamThatFinishesWithValuesQueuedFinishesWhenTheyArePaired() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        a.send(100)
        a.send(200)
        a.send(300)
        b.send(1)
        a.send(completion: .finished)
        #expect(Self.pairs(recorder) == [[100, 1]])
        #expect(recorder.completions.isEmpty)
        b.send(2)
        #expect(recorder.completions.isEmpty)
        b.send(3)
        #expect(Self.pairs(recorder) == [[100, 1], [200, 2], [300, 3]])
        #expect(recorder.trace.last == "finished")
        #expect(a.events == [.subscribe, .request(.unlimited)])
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func queuedValuesWaitingForDemandAreDeliveredBeforeTheFinish() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: nil)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.trace == ["subscription"])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[1, 2]])
        #expect(recorder.completions == [.finished])
    }

    @Test func finishFromInsideReceiveWithValuesQueuedDoesNotEndTheStream() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        recorder.onValue = { _ in a.send(completion: .finished) }
        a.send(1)
        a.send(1)
        b.send(1)
        #expect(recorder.events.count == 2)
        #expect(recorder.completions.isEmpty)
        b.send(2)
        #expect(Self.pairs(recorder) == [[1, 1], [1, 2]])
        #expect(recorder.completions == [.finished])
    }

    @Test func finishFromInsideReceiveWithNothingQueuedEndsTheStreamAfterThatReceive() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        recorder.onValue = { _ in
            b.send(completion: .finished)
            #expect(recorder.completions.isEmpty, "no completion inside receive")
        }
        a.send(1)
        b.send(1)
        #expect(recorder.completions == [.finished])
        #expect(a.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func failureFromAnyUpstreamFailsAtOnceAndCancelsEveryUpstream() {
        for failing in 0..<3 {
            let ups = (0..<3).map { _ in Upstream() }
            let recorder = ups[0].zip(ups[1], ups[2]).map { $0 + $1 + $2 }.record()
            ups[0].send(1)
            ups[1].send(1)
            ups[failing].send(completion: .failure(.oops))
            #expect(recorder.events == [.subscription, .failure(.oops)], "lane \(failing)")
            for up in ups {
                #expect(up.events == [.subscribe, .request(.unlimited), .cancel], "lane \(failing) fails")
            }
        }
    }

    @Test func failureAfterAnotherUpstreamFinishedWithValuesQueued() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        a.send(1)
        a.send(completion: .finished)
        b.send(completion: .failure(.other))
        #expect(recorder.events.count == 2)
        #expect(recorder.completions == [.failure(.other)])
        #expect(a.events == [.subscribe, .request(.unlimited)])
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func failureFromInsideReceiveWaitsForThatReceiveToReturn() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        recorder.onValue = { _ in
            a.send(completion: .failure(.oops))
            #expect(recorder.completions.isEmpty)
        }
        a.send(1)
        a.send(2)
        b.send(1)
        b.send(2)
        #expect(Self.pairs(recorder) == [[1, 1]])
        #expect(recorder.completions == [.failure(.oops)])
    }

    @Test func nothingAfterCompletion() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record()
        a.send(completion: .finished)
        b.sendKeepingSubscriber(1)
        a.sendKeepingSubscriber(1)
        a.sendKeepingSubscriber(completion: .failure(.oops))
        b.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "finished"])
        recorder.subscription?.request(.max(1))
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func operatorLaws() {
        OperatorLaws.check { $0.zip(Publishers.Sequence<[Int], TestError>(sequence: [10, 20, 30, 40])) }
        OperatorLaws.check { Publishers.Sequence<[Int], TestError>(sequence: [10, 20, 30, 40]).zip($0) { $0 + $1 } }
    }

    // MARK: Cancel and subscriptions

    @Test func cancelReachesEveryUpstreamAndStopsEverything() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let recorder = a.zip(b, c, d).map { $0 + $1 + $2 + $3 }.record()
        a.send(1)
        let subscription = recorder.subscription
        recorder.cancel()
        for up in [a, b, c, d] { #expect(up.events == [.subscribe, .request(.unlimited), .cancel]) }
        for up in [b, c, d] { up.sendKeepingSubscriber(1) }
        subscription?.request(.max(1))
        subscription?.cancel()
        b.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.trace == ["subscription"])
        for up in [a, b, c, d] { #expect(up.cancelCount == 1) }
    }

    @Test func cancelFromInsideReceiveStopsTheQueuedTuples() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: nil)
        a.send(1)
        a.send(2)
        b.send(1)
        b.send(2)
        recorder.onValue = { _ in recorder.cancel() }
        recorder.request(.max(2))
        #expect(Self.pairs(recorder) == [[1, 1]])
        #expect(a.events == [.subscribe, .request(.max(2)), .cancel])
        #expect(b.events == [.subscribe, .request(.max(2)), .cancel])
    }

    @Test func aSecondSubscriptionForTheSameUpstreamIsCancelled() {
        let a = Upstream(), b = Upstream()
        let recorder = a.zip(b).record(initialDemand: nil)
        let extra = Upstream()
        a.subscriber?.receive(subscription: extra.makeSubscription())
        #expect(extra.events == [.cancel])
        recorder.request(.max(1))
        #expect(a.events == [.subscribe, .request(.max(1))])
        #expect(extra.events == [.cancel])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<(Int, Int), Never>(initialDemand: nil)
            Publishers.Zip(Just(1), Just(2)).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Zip's subscription")
    }

    // MARK: Threads

    @Test func upstreamsSendingFromDifferentThreads() {
        for _ in 0..<5 {
            let total = 20_000
            let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = TupleRecorder()
            subjects[0].zip(subjects[1], subjects[2]).map { [$0, $1, $2] }.subscribe(recorder)
            let handles = subjects.map { SendableSubject(subject: $0) }
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                for value in 1...total { handles[lane].subject.send(value) }
                handles[lane].subject.send(completion: .finished)
            }
            // Every value paired once, in order, one call at a time, then exactly one completion.
            #expect(recorder.received.load(ordering: .relaxed) == total)
            #expect(recorder.mismatched.load(ordering: .relaxed) == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(recorder.completions.load(ordering: .relaxed) == 1)
            #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0)
        }
    }

    @Test func requestsFromAnotherThreadWhileUpstreamsSend() {
        for _ in 0..<5 {
            let total = 5_000
            let sources = (0..<2).map { _ in ThreadedSource() }
            let recorder = TupleRecorder(initialDemand: .none)
            sources[0].zip(sources[1]).map { [$0, $1] }.subscribe(recorder)
            let subscription = SendableSubscription(subscription: recorder.subscription!)
            // The sources run on worker threads and the requests come from this one: a source
            // that waits for demand must not keep the requesting thread from running.
            let group = DispatchGroup()
            for lane in 0..<2 {
                let source = sources[lane]
                DispatchQueue.global().async(group: group) {
                    for value in 1...total { source.emit(value) }
                    source.finish()
                }
            }
            for _ in 0..<total { subscription.subscription.request(.max(1)) }
            group.wait()
            #expect(recorder.received.load(ordering: .relaxed) == total)
            #expect(recorder.mismatched.load(ordering: .relaxed) == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(recorder.completions.load(ordering: .relaxed) == 1)
            #expect(sources.allSatisfy { !$0.timedOut.load(ordering: .relaxed) })
        }
    }
}

/// A publisher for thread tests that honours demand: `emit` waits (spinning) until its one
/// subscriber has asked for a value, then sends it and counts the demand `receive` returns.
final class ThreadedSource: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    let demand = Atomic<Int>(0)
    let cancelled = Atomic<Bool>(false)
    let timedOut = Atomic<Bool>(false)
    /// Set during `subscribe`, before other threads start.
    private var subscriber: AnySubscriber<Int, Never>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
        subscriber.receive(subscription: Token(owner: self))
    }

    func emit(_ value: Int) {
        let deadline = DispatchTime.now().uptimeNanoseconds + 20_000_000_000
        while demand.load(ordering: .acquiring) == 0 {
            if cancelled.load(ordering: .relaxed) { return }
            if DispatchTime.now().uptimeNanoseconds > deadline {
                timedOut.store(true, ordering: .relaxed)
                return
            }
        }
        demand.subtract(1, ordering: .relaxed)
        let more = subscriber?.receive(value) ?? .none
        add(more)
    }

    func finish() { subscriber?.receive(completion: .finished) }

    fileprivate func add(_ more: Subscribers.Demand) {
        guard more != .none else { return }
        demand.add(more.max ?? (Int.max / 4), ordering: .releasing)
    }

    private final class Token: Subscription {
        let owner: ThreadedSource
        init(owner: ThreadedSource) { self.owner = owner }
        func request(_ demand: Subscribers.Demand) { owner.add(demand) }
        func cancel() { owner.cancelled.store(true, ordering: .relaxed) }
    }
}

/// Subjects are thread-safe; Combine's API does not mark them `Sendable`.
struct SendableSubject: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>
}

/// Subscriptions may be called from any thread; Combine's API does not mark them `Sendable`.
struct SendableSubscription: @unchecked Sendable {
    let subscription: any Subscription
}

/// Receives `[Int]` tuples from several threads' upstreams. Counts them, checks that the n-th tuple
/// is `[n, n, ...]` (zip) or that each component never goes back (combineLatest), and that no two
/// calls overlap.
final class TupleRecorder: Subscriber, @unchecked Sendable {
    typealias Input = [Int]
    typealias Failure = Never

    let inFlight = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let mismatched = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)
    private let initialDemand: Subscribers.Demand
    private let pairsInOrder: Bool
    /// Only touched inside `receive`, which must never overlap.
    private(set) var last: [Int] = []
    private(set) var subscription: (any Subscription)?

    init(initialDemand: Subscribers.Demand = .unlimited, pairsInOrder: Bool = true) {
        self.initialDemand = initialDemand
        self.pairsInOrder = pairsInOrder
    }

    private func enter() {
        if inFlight.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
    }

    private func leave() { inFlight.store(false, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: [Int]) -> Subscribers.Demand {
        enter()
        defer { leave() }
        if completions.load(ordering: .relaxed) > 0 { afterCompletion.add(1, ordering: .relaxed) }
        let count = received.add(1, ordering: .relaxed).newValue
        if pairsInOrder {
            if input != Array(repeating: count, count: input.count) { mismatched.add(1, ordering: .relaxed) }
        } else if !last.isEmpty {
            // A new tuple: one component moved on, none went back.
            if zip(input, last).contains(where: { $0 < $1 }) || input == last { mismatched.add(1, ordering: .relaxed) }
        }
        last = input
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        completions.add(1, ordering: .relaxed)
        leave()
    }
}
