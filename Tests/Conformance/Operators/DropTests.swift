// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct DropTests {
    @Test func asksForTheDroppedValuesOnTopOfTheFirstRequest() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(2).record(initialDemand: .max(42), demandPerValue: .max(3))
        #expect(upstream.events == [.subscribe, .request(.max(44))])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(4) == .max(3))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .value(4), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(44))])
    }

    @Test func dropsOneByDefault() {
        let recorder = [1, 2, 3].publisher.dropFirst().record()
        #expect(recorder.events == [.subscription, .value(2), .value(3), .finished])
    }

    @Test func withoutDemandOnlyTheValuesToDropAreRequested() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(3).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe, .request(.max(3))])
        for value in 1...3 { #expect(upstream.send(value) == .none) }
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(2))])
        upstream.send(4)
        #expect(recorder.events == [.subscription, .value(4)])
    }

    @Test func droppingNothingWithoutDemandRequestsNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(0).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(5))
        #expect(upstream.events == [.subscribe, .request(.max(5))])
        upstream.send(1)
        #expect(recorder.values == [1])
    }

    @Test func unlimitedDemandStaysUnlimited() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(2).record()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        for value in 1...5 { upstream.send(value) }
        #expect(recorder.values == [3, 4, 5])
    }

    @Test func limitedDemandIsHonoured() {
        let recorder = (1...10).publisher.dropFirst(1).record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(2), .value(3)])
        recorder.request(.max(1))
        #expect(recorder.values == [2, 3, 4])
    }

    @Test func downstreamIsSubscribedBeforeUpstreamAndItsEarlyDemandIsHeld() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(2))
        upstream.logging(as: "upstream", into: log).dropFirst(1).subscribe(subscriber)
        #expect(log.entries == ["downstream subscription", "upstream subscribe", "upstream request(max(3))"])
    }

    @Test func failurePassesThroughWhileStillDropping() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(5).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func cancelFromInsideReceiveReachesUpstreamAndStopsDelivery() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(1).record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.send(2)
        upstream.sendKeepingSubscriber(3)
        #expect(recorder.events == [.subscription, .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func requestFromInsideReceiveGoesStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(1).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.values == [2])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(1))])
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let upstream = TestPublisher<Int, TestError>()
        let intruder = TestPublisher<Int, TestError>()
        _ = upstream.dropFirst(1).record()
        upstream.subscriber?.receive(subscription: intruder.makeSubscription())
        #expect(intruder.events == [.cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// As Combine's (OpenCombine's `DropTests.testDropCancelBeforeSubscription`): downstream holds
    /// the subscription before upstream has sent its own; after a cancel, that late subscription is
    /// neither requested from nor cancelled. (The differential fuzzer found the two implementations
    /// disagreeing here, through `subscribe(on:)`.)
    @Test func aSubscriptionThatComesAfterACancelIsLeftAlone() {
        let upstream = TestPublisher<Int, TestError>()
        let scheduler = VirtualTimeScheduler()
        let recorder = upstream.subscribe(on: scheduler).dropFirst(0).record()
        recorder.subscription?.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(upstream.events == [.subscribe])
        #expect(recorder.events == [.subscription])
    }

    /// As Combine's (OpenCombine's `DropTests.testDropReceiveValueBeforeSubscription`): downstream
    /// holds the subscription from the start, so a value that comes before upstream's subscription
    /// is dropped or passed on as any other.
    @Test func valuesBeforeUpstreamsSubscriptionAreDroppedOrPassedOn() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.dropFirst(1).record(initialDemand: .max(1), demandPerValue: .max(42))
        let subscriber = try #require(held.subscriber)
        #expect(subscriber.receive(1) == .none)
        #expect(subscriber.receive(2) == .max(42))
        #expect(recorder.events == [.subscription, .value(2)])
    }

    @Test func requestAfterCompletionGoesNowhere() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.dropFirst(1).record(initialDemand: .max(1))
        let subscription = recorder.subscription
        upstream.send(completion: .finished)
        subscription?.request(.max(7))
        subscription?.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func negativeCountTrapsOnSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = [1, 2, 3].publisher.eraseToAnyPublisher().dropFirst(-1).record()
        }
        expectTrapMessage(result, contains: "dropFirst(_:) requires a non-negative count")
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestPublisher<Int, TestError>().dropFirst(1).record(initialDemand: nil)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Drop's subscription")
    }

    @Test func publisherKeepsItsPartsAndComparesByThem() {
        let drop = Publishers.Drop(upstream: Just(1), count: 2)
        #expect(drop.upstream == Just(1))
        #expect(drop.count == 2)
        #expect(drop == Just(1).dropFirst(2))
        #expect(drop != Just(1).dropFirst(3))
    }

    @Test func laws() {
        OperatorLaws.check { $0.dropFirst(1) }
        OperatorLaws.check { $0.dropFirst(0) }
        OperatorLaws.check { $0.dropFirst(5) }
    }
}

@Suite struct DropOverSynchronousChainTests {
    /// As Combine: the subscription reaches downstream first, then `count` values are pulled
    /// through the chain at once (demand or not), and a source that runs out finishes the stream.
    /// `tryMap` has no eager overload on `Publishers.Sequence`: this is the operator over a chain.
    @Test func skipsAtSubscriptionAfterHandingOverTheSubscription() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, any Error>(
            receiveSubscription: { _ in log.append("subscription") },
            receiveValue: {
                log.append("value \($0)"); return .none
            },
            receiveCompletion: { log.append("\($0)") })
        (1...3).publisher.tryMap { (x: Int) -> Int in
            log.append("map \(x)")
            return x
        }.dropFirst(3).subscribe(subscriber)
        #expect(log == ["subscription", "map 1", "map 2", "map 3", "finished"])
    }

    @Test func dropsThenDeliversAgainstDemand() {
        let recorder = (1...6).publisher.tryMap { (x: Int) -> Int in x * 10 }.dropFirst(2).record(
            initialDemand: .max(2))
        #expect(recorder.trace == ["subscription", "value(30)", "value(40)"])
        recorder.request(.max(5))
        #expect(recorder.trace == ["subscription", "value(30)", "value(40)", "value(50)", "value(60)", "finished"])
    }
}
