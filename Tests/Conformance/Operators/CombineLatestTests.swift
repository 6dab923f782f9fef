// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Testing

@Suite struct CombineLatestTests {
    typealias Upstream = TestPublisher<Int, TestError>

    static func pairs(_ recorder: RecordingSubscriber<(Int, Int), TestError>) -> [[Int]] {
        recorder.values.map { [$0.0, $0.1] }
    }

    // MARK: Values and completion

    @Test func emitsOnceEveryUpstreamHasAValueThenOnEachNewValue() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        #expect(a.send(1) == .none)
        #expect(a.send(2) == .none)
        #expect(Self.pairs(recorder) == [])
        #expect(b.send(2) == .none)
        a.send(3)
        a.send(45)
        b.send(22)
        // Apple's documented example.
        #expect(Self.pairs(recorder) == [[2, 2], [3, 2], [45, 2], [45, 22]])
        #expect(recorder.subscriptionDescriptions == ["CombineLatest"])
    }

    @Test func combineLatest3And4WithAndWithoutTransform() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let three = a.combineLatest(b, c).map { [$0.0, $0.1, $0.2] }.record()
        a.send(1); a.send(2); b.send(2); c.send(9); a.send(3); b.send(12); a.send(13); c.send(19)
        // Apple's documented example.
        #expect(three.values == [[2, 2, 9], [3, 2, 9], [3, 12, 9], [13, 12, 9], [13, 12, 19]])
        // A TestPublisher talks to its latest subscriber: each chain below gets fresh traffic.
        let summed = a.combineLatest(b, c) { $0 * 100 + $1 * 10 + $2 }.record()
        a.send(1); b.send(2); c.send(3); c.send(4)
        #expect(summed.values == [123, 124])
        let four = a.combineLatest(b, c, d).map { [$0.0, $0.1, $0.2, $0.3] }.record()
        a.send(1); b.send(2); c.send(3)
        #expect(four.values == [])
        d.send(4)
        b.send(5)
        #expect(four.values == [[1, 2, 3, 4], [1, 5, 3, 4]])
        let joined = a.combineLatest(b, c, d) { "\($0)\($1)\($2)\($3)" }.record()
        d.send(4); c.send(3); b.send(2); a.send(1); a.send(0)
        #expect(joined.values == ["1234", "0234"])
        let two = a.combineLatest(b) { $0 - $1 }.record()
        a.send(10); b.send(3); b.send(4)
        #expect(two.values == [7, 6])
    }

    @Test func synchronousSources() {
        let recorder = [1, 2, 3].publisher.combineLatest(["a", "b"].publisher).map { "\($0)\($1)" }.record()
        #expect(recorder.events == [.subscription, .value("3a"), .value("3b"), .finished])
        let four = Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4)).map { [$0, $1, $2, $3] }.record()
        #expect(four.events == [.subscription, .value([1, 2, 3, 4]), .finished])
        let three = Publishers.CombineLatest3(Just(1), [2, 3].publisher, Just(4)).map { [$0, $1, $2] }.record()
        #expect(three.events == [.subscription, .value([1, 3, 4]), .finished])
    }

    /// Demand returned one at a time while both sequences send re-entrantly: every value after
    /// the first makes a tuple, and each is delivered (the returned demand is counted before the
    /// upstreams are asked again, so no tuple is taken for one beyond the demand).
    @Test func everyValueGetsItsTupleUnderDemandReturnedOneAtATime() {
        let recorder = [0, 0, 0].publisher.eraseToAnyPublisher().combineLatest([8, 3, -1].publisher)
            .map { $0 * 100 + $1 }.record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(recorder.events == [.subscription, .value(8), .value(8), .value(3), .value(-1), .value(-1), .finished])
    }

    @Test func publicPropertiesAndEquatable() {
        let two = Publishers.CombineLatest(Just(1), Just(2))
        #expect(two.a == Just(1) && two.b == Just(2))
        #expect(two == Just(1).combineLatest(Just(2)))
        #expect(two != Publishers.CombineLatest(Just(1), Just(3)))
        #expect(Publishers.CombineLatest3(Just(1), Just(2), Just(3)) == Just(1).combineLatest(Just(2), Just(3)))
        let four = Just(1).combineLatest(Just(2), Just(3), Just(4))
        #expect(four == Publishers.CombineLatest4(Just(1), Just(2), Just(3), Just(4)))
        #expect(four.c == Just(3) && four.d == Just(4))
    }

    // MARK: Completion

    @Test func keepsRunningWhileAnyUpstreamRunsAndFinishesWhenAllHaveFinished() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = a.combineLatest(b, c).map { [$0.0, $0.1, $0.2] }.record()
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        c.send(3)
        b.send(completion: .finished)
        c.send(4)
        #expect(recorder.values == [[1, 2, 3], [1, 2, 4]])
        #expect(recorder.completions.isEmpty)
        c.send(completion: .finished)
        #expect(recorder.completions == [.finished])
        for up in [a, b, c] { #expect(up.events == [.subscribe, .request(.unlimited)]) }
    }

    @Test func anUpstreamThatFinishesWithoutAValueStillWaitsForTheOthers() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        a.send(completion: .finished)
        b.send(1)
        #expect(recorder.events.count == 1)
        b.send(completion: .finished)
        #expect(recorder.completions == [.finished])
        #expect(b.events == [.subscribe, .request(.unlimited)])
    }

    @Test func failureFromAnyUpstreamFailsAtOnceAndCancelsEveryUpstream() {
        for failing in 0..<4 {
            let ups = (0..<4).map { _ in Upstream() }
            let recorder = ups[0].combineLatest(ups[1], ups[2], ups[3]).map { $0 + $1 + $2 + $3 }.record()
            for up in ups { up.send(1) }
            ups[failing].send(completion: .failure(.oops))
            #expect(recorder.events == [.subscription, .value(4), .failure(.oops)], "lane \(failing)")
            for up in ups {
                #expect(up.events == [.subscribe, .request(.unlimited), .cancel], "lane \(failing) fails")
            }
        }
    }

    @Test func failureAfterOtherUpstreamsFinished() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        a.send(1)
        a.send(completion: .finished)
        b.send(completion: .failure(.other))
        #expect(recorder.completions == [.failure(.other)])
        #expect(a.events == [.subscribe, .request(.unlimited)])
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func completionFromInsideReceiveWaitsForThatReceiveToReturn() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        recorder.onValue = { _ in
            a.send(completion: .finished)
            b.send(completion: .finished)
            #expect(recorder.completions.isEmpty)
        }
        a.send(1)
        b.send(2)
        #expect(recorder.events.count == 3)
        #expect(recorder.completions == [.finished])
    }

    @Test func nothingAfterCompletion() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        a.send(1)
        b.send(completion: .failure(.oops))
        a.sendKeepingSubscriber(2)
        b.sendKeepingSubscriber(2)
        a.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.trace == ["subscription", "failure(oops)"])
    }

    @Test func operatorLaws() {
        OperatorLaws.check { $0.combineLatest(Publishers.Sequence<[Int], TestError>(sequence: [10, 20])) }
        OperatorLaws.check { Just(5).setFailureType(to: TestError.self).combineLatest($0) { $0 + $1 } }
    }

    // MARK: Demand

    @Test func downstreamDemandGoesToEveryUpstreamAsItComes() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let recorder = a.combineLatest(b, c, d).record(initialDemand: .max(2))
        for up in [a, b, c, d] { #expect(up.events == [.subscribe, .request(.max(2))]) }
        recorder.request(.max(3))
        for up in [a, b, c, d] { #expect(up.events == [.subscribe, .request(.max(2)), .request(.max(3))]) }
    }

    @Test func zeroDemandAsksNothingAndThenGetsOnlyTheLatestTuple() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(initialDemand: nil)
        a.send(1)
        b.send(1)
        a.send(2)
        b.send(3)
        #expect(recorder.events.count == 1)
        #expect(a.events == [.subscribe] && b.events == [.subscribe])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[2, 3]])
        recorder.request(.max(5))
        #expect(Self.pairs(recorder) == [[2, 3]])
        a.send(4)
        #expect(Self.pairs(recorder) == [[2, 3], [4, 3]])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(5))])
    }

    @Test func valuesBeyondTheDemandAreDroppedForTheLatest() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(initialDemand: .max(1))
        a.send(1)
        b.send(1)
        a.send(2)
        a.send(3)
        b.send(2)
        #expect(Self.pairs(recorder) == [[1, 1]])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[1, 1], [3, 2]])
        recorder.request(.max(1))
        #expect(Self.pairs(recorder) == [[1, 1], [3, 2]])
        b.send(5)
        #expect(Self.pairs(recorder) == [[1, 1], [3, 2], [3, 5]])
    }

    @Test func demandReturnedByDownstreamGoesBackToTheSendingUpstream() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .max(1))
        #expect(a.send(2) == .max(1))
        #expect(Self.pairs(recorder) == [[1, 1], [2, 1]])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(b.events == [.subscribe, .request(.max(1)), .request(.max(1))])
    }

    @Test func requestFromInsideReceiveIsReturnedToTheSendingUpstream() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(3)) }
        a.send(1)
        #expect(b.send(1) == .max(3))
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(3))])
        #expect(b.events == [.subscribe, .request(.max(1))])
    }

    /// The upstream whose value started a delivery is answered when its `receive` returns, for every
    /// tuple delivered meanwhile (here one its own nested value made), and is never asked with
    /// `request` while it waits (the differential test, DIFF_SEED=3, found the fast runtime asking
    /// it after the first tuple).
    @Test func demandIsOwedToTheSendingUpstreamForEveryTupleItsReceiveDelivers() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(initialDemand: .max(1), demandPerValue: .max(1))
        var nested = false
        recorder.onValue = { _ in
            guard !nested else { return }
            nested = true
            b.send(20)
        }
        a.send(1)
        #expect(b.send(10) == .max(2))
        #expect(Self.pairs(recorder) == [[1, 10], [1, 20]])
        #expect(b.events == [.subscribe, .request(.max(1))])
        #expect(a.events == [.subscribe, .request(.max(1)), .request(.max(1)), .request(.max(1))])
    }

    @Test func valuesFromInsideReceiveEachGetTheirTupleAfterItReturns() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record()
        var nested = false
        recorder.onValue = { _ in
            guard !nested else { return }
            nested = true
            a.send(2)
            b.send(20)
            #expect(recorder.values.count == 1, "no delivery inside receive")
        }
        a.send(1)
        b.send(10)
        #expect(Self.pairs(recorder) == [[1, 10], [2, 10], [2, 20]])
    }

    // MARK: Cancel

    @Test func cancelReachesEveryUpstreamAndStopsEverything() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = a.combineLatest(b, c).map { $0 + $1 + $2 }.record()
        a.send(1)
        b.send(1)
        c.send(1)
        let subscription = recorder.subscription
        recorder.cancel()
        for up in [a, b, c] { #expect(up.events == [.subscribe, .request(.unlimited), .cancel]) }
        a.sendKeepingSubscriber(5)
        subscription?.request(.max(1))
        c.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3)])
    }

    @Test func cancelFromInsideReceive() {
        let a = Upstream(), b = Upstream()
        let recorder = a.combineLatest(b).record(cancelAfterValues: 1)
        a.send(1)
        b.send(1)
        a.sendKeepingSubscriber(2)
        #expect(Self.pairs(recorder) == [[1, 1]])
        #expect(a.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(b.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<(Int, Int), Never>(initialDemand: nil)
            Publishers.CombineLatest(Just(1), Just(2)).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on CombineLatest's subscription")
    }

    // MARK: Threads

    @Test func upstreamsSendingFromDifferentThreads() {
        for _ in 0..<5 {
            let total = 20_000
            let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = TupleRecorder(pairsInOrder: false)
            subjects[0].combineLatest(subjects[1], subjects[2]).map { [$0, $1, $2] }.subscribe(recorder)
            // Every upstream has a value before the threads start: from then on each value is a tuple.
            for subject in subjects { subject.send(0) }
            let handles = subjects.map { SendableSubject(subject: $0) }
            DispatchQueue.concurrentPerform(iterations: 3) { lane in
                for value in 1...total { handles[lane].subject.send(value) }
                handles[lane].subject.send(completion: .finished)
            }
            // One tuple per value, none out of order or repeated, the last one all the last values.
            #expect(recorder.received.load(ordering: .relaxed) == 1 + 3 * total)
            #expect(recorder.mismatched.load(ordering: .relaxed) == 0)
            #expect(recorder.last == [total, total, total])
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(recorder.completions.load(ordering: .relaxed) == 1)
            #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0)
        }
    }

    @Test func requestsFromAnotherThreadWhileUpstreamsSend() {
        for _ in 0..<5 {
            let total = 5_000
            let sources = (0..<2).map { _ in ThreadedSource() }
            let recorder = TupleRecorder(initialDemand: .none, pairsInOrder: false)
            sources[0].combineLatest(sources[1]).map { [$0, $1] }.subscribe(recorder)
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
            for _ in 0..<(2 * total) { subscription.subscription.request(.max(1)) }
            group.wait()
            // Each source got all of its demand (none lost on the way), so sent everything; the
            // tuples delivered never exceed the demand, and the stream ends once.
            #expect(sources.allSatisfy { !$0.timedOut.load(ordering: .relaxed) })
            #expect(recorder.received.load(ordering: .relaxed) <= 2 * total)
            #expect(recorder.received.load(ordering: .relaxed) >= 1)
            #expect(recorder.mismatched.load(ordering: .relaxed) == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(recorder.completions.load(ordering: .relaxed) == 1)
        }
    }
}
