// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct PrefixUntilOutputTests {
    @Test func otherThenUpstreamAreSubscribedAndDownstreamHearsOfItWhenUpstreamAnswers() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(3))
        upstream.logging(as: "upstream", into: log)
            .prefix(untilOutputFrom: other.logging(as: "other", into: log))
            .subscribe(subscriber)
        #expect(
            log.entries == [
                "other subscribe", "other request(max(1))",
                "upstream subscribe", "downstream subscription", "upstream request(max(3))",
            ])
    }

    @Test func republishesUntilTheOtherEmitsThenCancelsUpstreamAndFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let recorder = upstream.prefix(untilOutputFrom: other).record(initialDemand: .max(3), demandPerValue: .max(2))
        #expect(upstream.events == [.subscribe, .request(.max(3))])
        #expect(other.events == [.subscribe, .request(.max(1))])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .max(2))
        #expect(other.send("stop") == .none)
        upstream.sendKeepingSubscriber(3)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        // Combine does not cancel the other publisher once it has sent its element.
        #expect(other.events == [.subscribe, .request(.max(1))])
    }

    @Test func upstreamFinishingCancelsTheOtherBeforeDownstreamHearsIt() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: nil)
        upstream.prefix(untilOutputFrom: other.logging(as: "other", into: log)).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(log.entries.suffix(2) == ["other cancel", "downstream finished"])
        #expect(upstream.events == [.subscribe])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func upstreamFailurePassesThroughAndCancelsTheOther() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let recorder = upstream.prefix(untilOutputFrom: other).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func otherCompletingWithoutAnElementChangesNothing() {
        for completion in [Subscribers.Completion<TestError>.finished, .failure(.other)] {
            let upstream = TestPublisher<Int, TestError>()
            let other = TestPublisher<String, TestError>()
            let recorder = upstream.prefix(untilOutputFrom: other).record(initialDemand: .max(2))
            other.sendKeepingSubscriber(completion: completion)
            // As Combine's (OpenCombine's testTerminatorFinishesWithoutProducingValues): an element
            // the other sends after its completion is ignored.
            other.sendKeepingSubscriber("late")
            #expect(upstream.send(1) == .none)
            upstream.send(completion: .finished)
            #expect(recorder.events == [.subscription, .value(1), .finished])
            #expect(upstream.events == [.subscribe, .request(.max(2))])
            #expect(other.events == [.subscribe, .request(.max(1))])
        }
    }

    @Test func cancelReachesUpstreamFirstThenTheOther() {
        let log = TrafficLog()
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: nil)
        upstream.logging(as: "upstream", into: log)
            .prefix(untilOutputFrom: other.logging(as: "other", into: log))
            .subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(42))
        subscription?.cancel()
        #expect(log.entries.suffix(2) == ["upstream cancel", "other cancel"])
        #expect(upstream.events == [.subscribe, .cancel])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func demandPassesStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(untilOutputFrom: TestPublisher<Int, Never>()).record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(5))
        recorder.request(.unlimited)
        #expect(upstream.events == [.subscribe, .request(.max(5)), .request(.unlimited)])
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = (1...5).publisher.prefix(untilOutputFrom: TestPublisher<Int, Never>()).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aTriggerThatFiresAtOnceEndsTheStreamBeforeUpstreamRuns() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(untilOutputFrom: Just("stop")).record()
        // As in Combine (OpenCombine's testTerminatorEmitsValueBeforeUpstreamSendsSubscription),
        // downstream hears the completion alone: its subscription would come with upstream's.
        #expect(recorder.events == [.finished])
        #expect(upstream.events == [.subscribe, .cancel])
    }

    /// As in Combine (OpenCombine's testPrefixUntilOutputReceiveCompletionBeforeSubscription):
    /// downstream hears nothing of an upstream that completes before its subscription, and the
    /// trigger is cancelled; a trigger's element before the trigger's subscription is ignored.
    @Test func signalsBeforeASubscription() throws {
        let trigger = TestPublisher<String, Never>()
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.prefix(untilOutputFrom: trigger).record()
        held.subscriber?.receive(completion: .finished)
        #expect(recorder.events == [])
        #expect(trigger.events == [.subscribe, .request(.max(1)), .cancel])

        let upstream = TestPublisher<Int, TestError>()
        let heldTrigger = HeldPublisher<String, Never>()
        let second = upstream.prefix(untilOutputFrom: heldTrigger).record()
        #expect(try #require(heldTrigger.subscriber).receive("stop") == .none)
        #expect(second.events == [.subscription])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let recorder = upstream.prefix(untilOutputFrom: other).record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(other.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func triggerFiringFromInsideReceiveFinishesAfterThatValue() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let recorder = upstream.prefix(untilOutputFrom: other).record()
        recorder.onValue = { value in if value == 2 { other.send("stop") } }
        upstream.send(1)
        upstream.send(2)
        upstream.sendKeepingSubscriber(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func bothInnerSubscribersShareTheSubscriptionsIdentifier() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let recorder = upstream.prefix(untilOutputFrom: other).record()
        let identifier = recorder.subscription?.combineIdentifier
        #expect(identifier != nil)
        #expect(upstream.subscriber?.combineIdentifier == identifier)
        #expect(other.subscriber?.combineIdentifier == identifier)
    }

    @Test func publisherKeepsItsParts() {
        let upstream = TestPublisher<Int, TestError>()
        let other = TestPublisher<String, Never>()
        let prefixUntil = Publishers.PrefixUntilOutput(upstream: upstream, other: other)
        #expect(prefixUntil.upstream === upstream)
        #expect(prefixUntil.other === other)
    }

    @Test func laws() {
        OperatorLaws.check { $0.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()) }
        OperatorLaws.check { $0.prefix(untilOutputFrom: PassthroughSubject<String, TestError>()) }
    }
}
