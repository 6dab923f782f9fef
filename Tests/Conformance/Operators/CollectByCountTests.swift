// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CollectByCountTests {
    @Test func emitsFullArraysThenTheRestAtFinish() {
        let recorder = (1...7).publisher.collect(3).record()
        #expect(recorder.events == [.subscription, .value([1, 2, 3]), .value([4, 5, 6]), .value([7]), .finished])
    }

    /// As in Combine (OpenCombine's testCollectByCountReceiveCompletionBeforeSubscription): a
    /// completion before upstream's subscription reaches downstream, alone.
    @Test func aCompletionBeforeTheSubscriptionIsPassedOn() {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.collect(19).record()
        held.subscriber?.receive(completion: .finished)
        #expect(recorder.events == [.finished])
    }

    /// A subscriber that cancels inside `receive` and still returns demand: upstream, cancelled,
    /// is owed nothing for it.
    @Test func demandReturnedAfterACancelInsideReceiveIsNotPassedUp() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record(initialDemand: .max(1), demandPerValue: .max(1))
        recorder.onValue = { _ in recorder.cancel() }
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(recorder.values == [[1, 2]])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .cancel])
    }

    @Test func demandIsCountedInArrays() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(4).record(initialDemand: .max(2), demandPerValue: .max(3))
        #expect(upstream.events == [.subscribe, .request(.max(8))])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(recorder.events == [.subscription])
        // Downstream answers `.max(3)` arrays for the full one: upstream is owed 12 elements.
        #expect(upstream.send(4) == .max(12))
        #expect(recorder.events == [.subscription, .value([1, 2, 3, 4])])
        #expect(upstream.send(5) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2, 3, 4]), .value([5]), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(8))])
    }

    @Test func unlimitedDemandStaysUnlimitedAndLaterRequestsAreMultiplied() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record(initialDemand: .unlimited)
        recorder.request(.max(1))
        #expect(upstream.events == [.subscribe, .request(.unlimited), .request(.max(2))])
    }

    @Test func noDemandAsksUpstreamForNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(3).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        #expect(recorder.subscriptionDescriptions == ["CollectByCount"])
        recorder.request(.max(1))
        #expect(upstream.events == [.subscribe, .request(.max(3))])
    }

    @Test func finishWithAnEmptyBufferSendsNoEmptyArray() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record()
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2]), .finished])
    }

    @Test func failureDropsTheBuffer() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(3).record()
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(4)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value([1, 2, 3]), .failure(.oops)])
    }

    @Test func failureArrivesWithoutDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(3).record(initialDemand: nil)
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    @Test func cancelMidStreamDropsTheBufferAndStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record(initialDemand: .max(2))
        upstream.send(1)
        recorder.cancel()
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription])
        #expect(upstream.events == [.subscribe, .request(.max(4)), .cancel])
    }

    @Test func requestFromInsideReceiveGoesUpstreamMultiplied() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(2)) }
        upstream.send(1)
        #expect(upstream.send(2) == .none)
        #expect(recorder.values == [[1, 2]])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(4))])
    }

    @Test func cancelFromInsideReceiveStopsUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.collect(2).record(initialDemand: .unlimited, cancelAfterValues: 1)
        for value in 1...5 { upstream.send(value) }
        #expect(recorder.events == [.subscription, .value([1, 2])])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<[Int], Never>(initialDemand: nil)
            [1, 2].publisher.collect(2).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on CollectByCount's subscription")
    }

    @Test func publicShape() {
        let collect = Publishers.CollectByCount(upstream: Just(1), count: 3)
        #expect(collect.count == 3)
        #expect(collect.upstream == Just(1))
        #expect(collect == Just(1).collect(3))
        #expect(collect != Just(1).collect(4))
    }

    @Test func laws() {
        OperatorLaws.check { $0.collect(2) }
        OperatorLaws.check { $0.collect(5) }
    }
}
