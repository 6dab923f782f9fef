// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct EmptyTests {
    @Test func completesImmediatelyWithoutDemand() {
        let recorder = Empty<Int, TestError>().record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.subscriptionDescriptions == ["Empty"])
    }

    @Test func neverCompletesWhenAskedNotTo() {
        let recorder = Empty<Int, TestError>(completeImmediately: false).record()
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func cancelFromReceiveSubscriptionDoesNotStopTheCompletion() {
        var completions: [Subscribers.Completion<TestError>] = []
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { $0.cancel() },
            receiveCompletion: { completions.append($0) })
        Empty(outputType: Int.self, failureType: TestError.self).subscribe(subscriber)
        #expect(completions == [.finished])
    }

    @Test func eachSubscriberCompletes() {
        let empty = Empty<String, Never>()
        #expect(empty.record().events == [.subscription, .finished])
        #expect(empty.record().events == [.subscription, .finished])
    }

    @Test func equalityComparesCompleteImmediately() {
        #expect(
            Empty<Int, TestError>()
                == Empty(completeImmediately: true, outputType: Int.self, failureType: TestError.self))
        #expect(Empty<Int, TestError>(completeImmediately: false) != Empty<Int, TestError>())
        #expect(Empty<Int, TestError>().completeImmediately)
        #expect(!Empty<Int, TestError>(completeImmediately: false).completeImmediately)
    }
}
