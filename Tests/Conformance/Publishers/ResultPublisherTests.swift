// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ResultPublisherTests {
    @Test func successWaitsForTheFirstRequestThenFinishes() {
        let recorder = Result<Int, TestError>.success(42).publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        #expect(recorder.subscriptionDescriptions == ["Once"])
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(42), .finished])
        recorder.request(.max(1))
        #expect(recorder.events.count == 3)
    }

    @Test func failureIsSentImmediatelyWithoutDemand() {
        let recorder = Result<Int, TestError>.failure(.oops).publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(recorder.subscriptionDescriptions == ["Empty"])
    }

    @Test func initialisersBuildTheResult() {
        #expect(Result<Int, TestError>.Publisher(5).result == .success(5))
        #expect(Result<Int, TestError>.Publisher(TestError.other).result == .failure(.other))
        #expect(Result<Int, TestError>.Publisher(.success(1)) == Result<Int, TestError>.success(1).publisher)
        #expect(Result<Int, TestError>.Publisher(1) != Result<Int, TestError>.Publisher(2))
    }

    @Test func cancelBeforeRequestDeliversNothing() {
        let recorder = Result<Int, TestError>.success(1).publisher.record(initialDemand: nil)
        recorder.cancel()
        #expect(recorder.events == [.subscription])
    }

    @Test func reentrantRequestFromReceiveDeliversNothingMore() {
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.unlimited) }
        Result<Int, TestError>.success(5).publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(5), .finished])
        #expect(recorder.firstSubscription == nil)
    }

    @Test func eachSubscriberGetsTheResult() {
        let publisher = Result<String, TestError>.success("x").publisher
        #expect(publisher.record().values == ["x"])
        #expect(publisher.record().values == ["x"])
        let failing = Result<String, TestError>.failure(.oops).publisher
        #expect(failing.record().completions == [.failure(.oops)])
        #expect(failing.record().completions == [.failure(.oops)])
    }
}
