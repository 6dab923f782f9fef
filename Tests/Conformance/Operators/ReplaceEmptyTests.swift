// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ReplaceEmptyTests {
    @Test func emptyUpstreamIsReplaced() {
        #expect([Int]().publisher.replaceEmpty(with: 42).record().events == [.subscription, .value(42), .finished])
    }

    @Test func valuesPassAndNothingIsAdded() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 42).record()
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func failureIsNotReplaced() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 42).record(initialDemand: nil)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
        recorder.request(.unlimited)
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func replacementWaitsForDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 22).record(initialDemand: nil)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(22), .finished])
        // Upstream has finished: the request that released the value is not passed on.
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// As in Combine: `.unlimited` goes upstream after downstream has the subscription, and each
    /// downstream request is passed on as well; each value comes back with downstream's answer.
    @Test func upstreamTraffic() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 0).record(initialDemand: .max(2), demandPerValue: .max(4))
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.unlimited)])
        #expect(upstream.send(1) == .max(4))
        recorder.request(.max(5))
        recorder.cancel()
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.unlimited), .request(.max(5)), .cancel])
    }

    /// Combine's `replaceEmpty` forwards every upstream value whatever downstream asked for:
    /// having asked upstream for `.unlimited`, it does not hold values back.
    @Test func valuesAreNotHeldBackByDownstreamDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 0).record(initialDemand: .max(1))
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.values == [1, 2])
    }

    @Test func downstreamGetsTheSubscriptionBeforeUpstreamIsAsked() {
        let upstream = TestPublisher<Int, TestError>()
        let probe = SubscriptionOrderProbe<Int, TestError> { upstream.events }
        upstream.replaceEmpty(with: 1).subscribe(probe)
        #expect(probe.upstreamEventsAtSubscription == [.subscribe])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func cancelWhileTheReplacementWaitsDeliversNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 5).record(initialDemand: nil)
        upstream.send(completion: .finished)
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func requestFromInsideReceiveIsPassedOn() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.replaceEmpty(with: 5).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(3)) }
        upstream.send(1)
        #expect(upstream.events == [.subscribe, .request(.max(1)), .request(.unlimited), .request(.max(3))])
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            [Int]().publisher.replaceEmpty(with: 1).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on ReplaceEmpty's subscription")
    }

    @Test func publicShape() {
        let replace = Publishers.ReplaceEmpty(upstream: Just(1), output: 2)
        #expect(replace.output == 2)
        #expect(replace == Just(1).replaceEmpty(with: 2))
        #expect(replace != Just(1).replaceEmpty(with: 3))
        #expect(replace.record().subscriptionDescriptions == ["ReplaceEmpty"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.replaceEmpty(with: 0) }
        OperatorLaws.check(input: []) { $0.replaceEmpty(with: 0) }
    }
}
