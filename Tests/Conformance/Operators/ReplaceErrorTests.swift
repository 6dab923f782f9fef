// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ReplaceErrorTests {
    @Test func valuesAndFinishedPassThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 40).record(initialDemand: .max(1))
        #expect(upstream.send(42) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(42), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func failureWithDemandDeliversTheReplacementThenFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 42).record(initialDemand: .max(1))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(42), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(1))], "a failed upstream is not cancelled")
    }

    @Test func valueThenFailureWithDemandLeft() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 42).record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(upstream.send(41) == .max(1))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(41), .value(42), .finished])
    }

    @Test func failureWithoutDemandWaitsForARequest() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 42).record(initialDemand: nil)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(42), .finished])
        #expect(upstream.events == [.subscribe], "a request after upstream failed is not forwarded")
    }

    @Test func demandUsedUpBeforeTheFailureIsWaitedFor() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 42).record(initialDemand: .max(1))
        #expect(upstream.send(9) == .none)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(9)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(9), .value(42), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func unlimitedDemandStaysUnlimited() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 0).record()
        for value in 1...5 { upstream.send(value) }
        upstream.send(completion: .failure(.other))
        #expect(recorder.values == [1, 2, 3, 4, 5, 0])
        #expect(recorder.completions.count == 1)
    }

    @Test func demandRequestedFromInsideReceiveCounts() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        upstream.replaceError(with: 42).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .value(42), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(1)), .request(.max(1))])
    }

    @Test func cancelWhileWaitingForDemandDropsTheReplacement() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 42).record(initialDemand: nil)
        let subscription = recorder.subscription
        upstream.send(completion: .failure(.oops))
        recorder.cancel()
        subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
        #expect(upstream.events == [.subscribe], "upstream has already failed: there is nothing to cancel")
    }

    @Test func cancelMidStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceError(with: 0).record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aValueWithoutDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            _ = upstream.replaceError(with: 0).record(initialDemand: nil)
            upstream.send(1)
        }
        expectTrapMessage(result, contains: "no outstanding demand")
    }

    @Test func equatableWhenUpstreamAndOutputAre() {
        let one = Publishers.ReplaceError(upstream: Just(1), output: 2)
        #expect(one == Publishers.ReplaceError(upstream: Just(1), output: 2))
        #expect(one != Publishers.ReplaceError(upstream: Just(1), output: 3))
        #expect(one.output == 2 && one.upstream == Just(1))
    }

    @Test func laws() {
        OperatorLaws.check { $0.replaceError(with: 0) }
    }
}
