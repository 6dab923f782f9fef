// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct JustTests {
    @Test func deliversValueAndFinishesOnFirstRequest() {
        let recorder = Just(42).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(42), .finished])
        recorder.request(.max(1))
        #expect(recorder.events.count == 3)
    }

    @Test func unlimitedDemandDeliversSynchronouslyDuringSubscribe() {
        var received: [Int] = []
        var completion: Subscribers.Completion<Never>?
        let token = Just(7).sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
        #expect(received == [7])
        #expect(completion == .finished)
        token.cancel()
    }

    @Test func cancelBeforeRequestDeliversNothing() {
        let recorder = Just(1).record(initialDemand: nil)
        recorder.cancel()
        #expect(recorder.events == [.subscription])
    }

    @Test func eachSubscriberGetsTheValue() {
        let just = Just("a")
        #expect(just.record().values == ["a"])
        #expect(just.record().values == ["a"])
        #expect(just.output == "a")
        #expect(Just(1) == Just(1))
    }

    @Test func cancelFromInsideReceiveSuppressesTheCompletion() {
        let recorder = Just(1).record(cancelAfterValues: 1)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func subscriptionIsReleasedAfterCompletion() {
        let recorder = Just(1).record()
        #expect(recorder.firstSubscription == nil)
    }
}
