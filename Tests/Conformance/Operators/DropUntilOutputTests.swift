// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct DropUntilOutputTests {
    /// As Combine's (OpenCombine's testCrashesWhenReceivesInputAfterCancel and
    /// testDropUntilOutputReceiveValueBeforeSubscription): the operator counts demand, and a value
    /// that finds none traps, whether it would be dropped or passed, and after the stream ended.
    @Test func aValueBeyondDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            _ = upstream.drop(untilOutputFrom: Empty<Int, TestError>()).record(initialDemand: nil)
            upstream.sendKeepingSubscriber(0)
        }
        expectTrapMessage(
            result,
            contains: "DropUntilOutput received a value from upstream while downstream had no outstanding demand")
    }

    /// A dropped value spends demand as a passed one does.
    @Test func aDroppedValueSpendsDemand() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            let trigger = TestPublisher<Int, TestError>()
            _ = upstream.drop(untilOutputFrom: trigger).record(initialDemand: .max(1))
            upstream.send(1)
            trigger.send(0)
            upstream.send(2)
        }
        expectTrapMessage(
            result,
            contains: "DropUntilOutput received a value from upstream while downstream had no outstanding demand")
    }

    @Test func downstreamThenOtherThenUpstreamAreSubscribed() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(4))
        upstream.logging(as: "upstream", into: log)
            .drop(untilOutputFrom: other.logging(as: "other", into: log))
            .subscribe(subscriber)
        #expect(
            log.entries == [
                "downstream subscription",
                "other subscribe", "other request(max(1))",
                "upstream subscribe", "upstream request(max(4))",
            ])
    }

    @Test func dropsUntilTheOtherEmitsThenPassesEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record(
            initialDemand: .max(4), demandPerValue: { .max($0) })
        #expect(upstream.events == [.subscribe, .request(.max(4))])
        #expect(other.events == [.subscribe, .request(.max(1))])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(other.send("go") == .none)
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(4) == .max(4))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .value(4), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(4))])
        // Combine neither cancels the other publisher after its element nor at the end.
        #expect(other.events == [.subscribe, .request(.max(1))])
    }

    @Test func otherFinishingBeforeItsElementCancelsUpstreamAndFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record(initialDemand: .max(2))
        upstream.send(1)
        other.send(completion: .finished)
        upstream.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .cancel])
        #expect(other.events == [.subscribe, .request(.max(1))])
    }

    @Test func otherFailingBeforeItsElementCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record()
        other.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .failure(.other)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func otherCompletionAfterItsElementIsIgnored() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record()
        other.send("go")
        other.send(completion: .failure(.other))
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func upstreamFailureBeforeTheTriggerCancelsTheOtherFirst() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .unlimited)
        upstream.drop(untilOutputFrom: other.logging(as: "other", into: log)).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        #expect(log.entries.suffix(2) == ["other cancel", "downstream failure(oops)"])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func cancelReachesUpstreamFirstThenTheOther() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(2))
        upstream.logging(as: "upstream", into: log)
            .drop(untilOutputFrom: other.logging(as: "other", into: log))
            .subscribe(subscriber)
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        subscriber.subscription?.request(.max(10))
        #expect(log.entries.suffix(2) == ["upstream cancel", "other cancel"])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .cancel])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func zeroDemandAsksUpstreamForNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        other.send("go")
        recorder.request(.max(1))
        upstream.send(1)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record(cancelAfterValues: 1)
        other.send("go")
        upstream.send(1)
        upstream.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aTriggerThatFiresAtOnceLetsEverythingThrough() {
        let recorder = [1, 2, 3].publisher.drop(untilOutputFrom: Just("go")).record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aTriggerThatFinishesAtOnceEndsTheStreamBeforeUpstreamRuns() {
        let upstream = TestPublisher<Int, Never>()
        let recorder = upstream.drop(untilOutputFrom: [String]().publisher).record()
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .cancel])
    }

    @Test func bothInnerSubscribersShareTheSubscriptionsIdentifier() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, TestError>()
        let recorder = upstream.drop(untilOutputFrom: other).record()
        let identifier = recorder.subscription?.combineIdentifier
        #expect(identifier != nil)
        #expect(upstream.subscriber?.combineIdentifier == identifier)
        #expect(other.subscriber?.combineIdentifier == identifier)
    }

    @Test func publisherKeepsItsPartsAndComparesByThem() {
        let dropUntil = Publishers.DropUntilOutput(upstream: Just(1), other: Just("a"))
        #expect(dropUntil.upstream == Just(1))
        #expect(dropUntil.other == Just("a"))
        #expect(dropUntil == Just(1).drop(untilOutputFrom: Just("a")))
        #expect(dropUntil != Just(1).drop(untilOutputFrom: Just("b")))
    }

    @Test func laws() {
        OperatorLaws.check { $0.drop(untilOutputFrom: PassthroughSubject<Void, TestError>()) }
        OperatorLaws.check { $0.drop(untilOutputFrom: Publishers.Sequence<[String], TestError>(sequence: ["go"])) }
    }
}
