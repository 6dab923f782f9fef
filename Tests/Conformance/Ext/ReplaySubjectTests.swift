// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

@Suite struct ReplaySubjectTests {
    typealias IntSubject = ReplaySubject<Int, TestError>

    // MARK: Replay

    @Test func aLateSubscriberReceivesTheLastValuesThenLiveOnes() {
        let subject = IntSubject(bufferSize: 2)
        for value in 1...4 { subject.send(value) }
        let late = subject.record()
        #expect(late.events == [.subscription, .value(3), .value(4)])
        #expect(late.subscriptionDescriptions == ["ReplaySubject"])
        subject.send(5)
        #expect(late.values == [3, 4, 5])
    }

    @Test func theCompletionIsReplayedAfterTheLastValues() {
        let subject = IntSubject(bufferSize: 3)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.oops))
        subject.send(3)
        let late = subject.record()
        #expect(late.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        let again = subject.record()
        #expect(again.events == late.events, "every late subscriber gets the same replay")
    }

    @Test func aSubjectWithNoBufferReplaysOnlyTheCompletion() {
        let subject = IntSubject(bufferSize: 0)
        subject.send(1)
        let early = subject.record()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(early.events == [.subscription, .value(2), .finished])
        #expect(subject.record().events == [.subscription, .finished])
    }

    // MARK: Demand

    @Test func valuesWaitForDemandInOrderAndNoneIsDropped() {
        let subject = IntSubject(bufferSize: 1)
        subject.send(0)
        let slow = subject.record(initialDemand: .max(1))
        #expect(slow.values == [0])
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(slow.values == [0], "no demand: the values wait")
        slow.request(.max(2))
        #expect(slow.values == [0, 1, 2])
        slow.request(.max(5))
        #expect(slow.values == [0, 1, 2, 3])
        subject.send(4)
        #expect(slow.values == [0, 1, 2, 3, 4])
    }

    @Test func theCompletionWaitsForTheBacklogButNotForDemand() {
        let subject = IntSubject(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        let recorder = subject.record(initialDemand: nil)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription], "two values wait before the completion")
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subject = IntSubject(bufferSize: 4)
        for value in 1...4 { subject.send(value) }
        let recorder = subject.record(initialDemand: .max(1), demandPerValue: { $0 < 3 ? .max(1) : .none })
        #expect(recorder.values == [1, 2, 3])
    }

    // MARK: Several subscribers

    @Test func subscribersAreServedInSubscriptionOrder() {
        let subject = IntSubject(bufferSize: 0)
        let log = Log()
        let recorders = (0..<5).map { index in
            let recorder = subject.record()
            recorder.onValue = { log.append("\(index):\($0)") }
            return recorder
        }
        subject.send(7)
        subject.send(8)
        #expect(log.entries == (0..<5).map { "\($0):7" } + (0..<5).map { "\($0):8" })
        withExtendedLifetime(recorders) {}
    }

    @Test func eachSubscriberHasItsOwnDemand() {
        let subject = IntSubject(bufferSize: 0)
        let eager = subject.record()
        let lazy = subject.record(initialDemand: .max(1))
        subject.send(1)
        subject.send(2)
        #expect(eager.values == [1, 2])
        #expect(lazy.values == [1])
    }

    // MARK: Re-entrancy

    @Test func aValueSentFromInsideReceiveFollowsTheOneInHand() {
        let subject = IntSubject(bufferSize: 0)
        let depth = Log()
        var inside = false
        let recorder = subject.record()
        recorder.onValue = { value in
            depth.append(inside ? "nested" : "flat")
            inside = true
            if value < 3 { subject.send(value + 1) }
            inside = false
        }
        subject.send(1)
        #expect(recorder.values == [1, 2, 3])
        #expect(depth.entries == ["flat", "flat", "flat"], "a subscriber is never entered twice at once")
    }

    @Test func aCancelFromInsideReceiveStopsTheBacklog() {
        let subject = IntSubject(bufferSize: 5)
        for value in 1...5 { subject.send(value) }
        let recorder = subject.record(cancelAfterValues: 2)
        subject.send(6)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aRequestFromInsideReceiveIsServedAfterIt() {
        let subject = IntSubject(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        var nested = 0
        recorder.onValue = { _ in
            nested += 1
            if nested == 1 { recorder.request(.max(2)) }
            #expect(nested == 1, "the request is served after the value in hand")
            nested -= 1
        }
        subject.subscribe(recorder)
        #expect(recorder.values == [1, 2, 3])
    }

    // MARK: Upstream

    @Test func anUpstreamSubscriptionIsAskedForEverythingAtOnce() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = IntSubject(bufferSize: 2)
        let connection = upstream.subscribe(subject)
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subject.record().events == [.subscription, .value(2), .value(3), .finished])
        withExtendedLifetime(connection) {}
    }

    @Test func aFreedSubjectCancelsItsUpstreamAndLeavesItsSubscribersTheirBacklog() {
        let upstream = TestPublisher<Int, TestError>()
        var subject: IntSubject? = IntSubject(bufferSize: 2)
        let connection = upstream.subscribe(subject!)
        upstream.send(1)
        let recorder = subject!.record(initialDemand: nil)
        subject = nil
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        recorder.request(.max(1))
        #expect(recorder.values == [1])
        withExtendedLifetime(connection) {}
    }

    // MARK: Lifetimes

    @Test func aCancelledOrCompletedSubscriberIsLetGo() {
        let subject = IntSubject(bufferSize: 1)
        weak var cancelled: RecordingSubscriber<Int, TestError>?
        weak var completed: RecordingSubscriber<Int, TestError>?
        do {
            let first = subject.record()
            let second = subject.record(initialDemand: nil)
            cancelled = first
            completed = second
            first.cancel()
            subject.send(1)
            subject.send(completion: .finished)
            second.request(.max(1))
            #expect(second.events == [.subscription, .value(1), .finished])
        }
        #expect(cancelled == nil)
        #expect(completed == nil)
    }

    // MARK: Threads

    @Test func aSubscribeRacingSendsNeitherLosesNorDuplicatesAValue() {
        for round in 0..<200 {
            // Subjects are thread-safe, but not `Sendable`.
            nonisolated(unsafe) let subject = IntSubject(bufferSize: 3)
            let count = 200
            let start = Atomic<Bool>(false)
            let sender = onAnotherThread {
                while !start.load(ordering: .acquiring) {}
                for value in 0..<count { subject.send(value) }
                subject.send(completion: .finished)
            }
            start.store(true, ordering: .releasing)
            for _ in 0..<(round % 50) { _ = Atomic<Int>(0).load(ordering: .relaxed) }
            let recorder = LockedRecorder<Int, TestError>()
            subject.subscribe(recorder)
            sender.wait()
            let values = recorder.values
            #expect(recorder.completions.count == 1, "round \(round)")
            #expect(values.last == count - 1, "round \(round)")
            #expect(values == Array((values.first ?? 0)..<count), "round \(round): \(values)")
        }
    }

    @Test func cancelsRacingSendsEndEachSubscriberCleanly() {
        nonisolated(unsafe) let subject = IntSubject(bufferSize: 2)
        let count = 2_000
        let subscribers = (0..<8).map { _ in LockedRecorder<Int, TestError>() }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        let sender = onAnotherThread {
            for value in 0..<count { subject.send(value) }
            subject.send(completion: .finished)
        }
        for subscriber in subscribers { subscriber.cancel() }
        sender.wait()
        for subscriber in subscribers {
            let values = subscriber.values
            #expect(values == Array(0..<values.count), "a prefix, in order: \(values.prefix(10))…")
        }
    }
}

/// A list of strings that closures append to.
private final class Log {
    private(set) var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
