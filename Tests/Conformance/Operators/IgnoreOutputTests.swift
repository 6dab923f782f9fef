// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct IgnoreOutputTests {
    @Test func passesOnlyTheCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.ignoreOutput().record()
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(recorder.events == [.subscription])
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.ignoreOutput().record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func completionNeedsNoDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.ignoreOutput().record(initialDemand: nil)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    /// As in Combine: downstream's requests reach upstream (the first one before the operator's
    /// own `.unlimited`, since downstream has the subscription first), and so does the cancel.
    @Test func upstreamTraffic() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.ignoreOutput().record(initialDemand: .max(42))
        #expect(upstream.events == [.subscribe, .request(.max(42)), .request(.unlimited)])
        recorder.request(.max(5))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(42)), .request(.unlimited), .request(.max(5)), .cancel])
    }

    @Test func noDemandStillAsksUpstreamForEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let probe = SubscriptionOrderProbe<Never, TestError> { upstream.events }
        upstream.ignoreOutput().subscribe(probe)
        #expect(probe.upstreamEventsAtSubscription == [.subscribe])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func requestsAndCancelGoStraightUpstreamEvenAfterACancel() {
        // As Combine's: downstream holds the upstream's own subscription, and every completion
        // is passed on (OpenCombine's Apple-validated IgnoreOutputTests.testDemand).
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.ignoreOutput().record()
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(1))
        subscription?.cancel()
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
        #expect(
            upstream.events == [
                .subscribe, .request(.unlimited), .request(.unlimited), .cancel, .request(.max(1)), .cancel,
            ])
    }

    @Test func publicShape() {
        let ignore = Publishers.IgnoreOutput(upstream: Just(1))
        #expect(ignore.upstream == Just(1))
        #expect(ignore == Just(1).ignoreOutput())
        let recorder = ignore.record()
        #expect(recorder.events == [.subscription, .finished])
        // Downstream gets the upstream's subscription (IgnoreOutputTests.testCompletionWithEmpty).
        #expect(recorder.subscriptionDescriptions == ["Just"])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough(requestsOnSubscription: .unlimited) { $0.ignoreOutput() }
    }
}
