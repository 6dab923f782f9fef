// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct OptionalPublisherTests {
    @Test func valueWaitsForTheFirstRequestThenFinishes() {
        let recorder = Optional(42).publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        #expect(recorder.subscriptionDescriptions == ["Optional"])
        recorder.request(.max(100))
        #expect(recorder.events == [.subscription, .value(42), .finished])
        recorder.request(.max(1))
        #expect(recorder.events.count == 3)
    }

    @Test func unlimitedDemandDeliversDuringSubscribe() {
        #expect(Optional.Publisher(7).record().events == [.subscription, .value(7), .finished])
    }

    @Test func nilFinishesImmediately() {
        let recorder = Optional<Int>.none.publisher.record(initialDemand: nil)
        #expect(recorder.events == [.subscription, .finished])
        #expect(recorder.subscriptionDescriptions == ["Empty"])
    }

    @Test func cancelBeforeRequestDeliversNothing() {
        let recorder = Optional(1).publisher.record(initialDemand: nil)
        recorder.cancel()
        recorder.subscription?.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func cancelFromInsideReceiveSuppressesTheCompletion() {
        let recorder = Optional(1).publisher.record(cancelAfterValues: 1)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func reentrantRequestFromReceiveDeliversNothingMore() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.unlimited) }
        Optional(5).publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(5), .finished])
    }

    @Test func eachSubscriberGetsTheValueAndTheSubscriptionIsReleased() {
        let publisher = Optional("a").publisher
        let first = publisher.record()
        #expect(first.values == ["a"])
        #expect(first.firstSubscription == nil)
        #expect(publisher.record().values == ["a"])
        #expect(publisher.output == "a")
        #expect(publisher == Optional.Publisher("a"))
        #expect(publisher != Optional.Publisher(nil))
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Optional(1).publisher.record(initialDemand: nil).request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Optional's subscription")
    }
}
