// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct SequenceTests {
    @Test func unlimitedDemandSendsEverythingThenFinishes() {
        let recorder = [1, 2, 3].publisher.record()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func limitedDemandSendsOnlyWhatWasAsked() {
        let recorder = (1...5).publisher.record(initialDemand: .max(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completions.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events.suffix(2) == [.value(5), .finished])
    }

    @Test func finishesRightAfterTheLastElementWithoutMoreDemand() {
        let recorder = [1, 2].publisher.record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let recorder = (1...10).publisher.record(initialDemand: .max(1), demandPerValue: { $0 < 4 ? .max(1) : .none })
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func zeroDemandSendsNothing() {
        let recorder = [1, 2].publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
    }

    @Test func emptySequenceFinishesImmediately() {
        let recorder = [Int]().publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func reentrantRequestFromReceiveIsPickedUpWithoutRecursion() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            recorder.request(.max(1))
            depth -= 1
        }
        (1...1000).publisher.subscribe(recorder)
        #expect(recorder.values == Array(1...1000))
        #expect(recorder.completions.count == 1)
        #expect(maxDepth == 1)
    }

    @Test func cancelFromInsideReceiveStopsImmediately() {
        let recorder = (1...10).publisher.record(cancelAfterValues: 3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
    }

    @Test func optionalElementsArePublishedAsOptionals() {
        let recorder = [1, nil, 3].publisher.record()
        #expect(recorder.values == [1, nil, 3])
    }

    @Test func subscriptionIsReleasedAfterCompletion() {
        let recorder = [1, 2].publisher.record()
        #expect(recorder.firstSubscription == nil)
    }

    @Test func failureTypeCanBeChosen() {
        let publisher = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
        let recorder = publisher.record()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(publisher.sequence == [1, 2])
    }
}
