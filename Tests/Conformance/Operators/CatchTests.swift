// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CatchTests {
    /// R39: values before the failure pass through, the replacement's values follow, and the
    /// original upstream is never heard from again.
    @Test func seedOracleWithSubjectAndJust() {
        let subject = PassthroughSubject<String, TestError>()
        let recorder = subject.catch { _ in Just("replacement value") }.record()
        subject.send("oneValue")
        subject.send("twoValue")
        subject.send(completion: .failure(.oops))
        subject.send("redValue")
        subject.send("blueValue")
        subject.send(completion: .finished)
        #expect(
            recorder.events == [
                .subscription, .value("oneValue"), .value("twoValue"), .value("replacement value"), .finished,
            ])
    }

    @Test func switchesToTheReplacementOnFailure() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        var handled: [TestError] = []
        let recorder = primary.catch { error in
            handled.append(error)
            return replacement
        }.record(initialDemand: .max(5))
        #expect(primary.send(1) == .none)
        #expect(primary.send(2) == .none)
        #expect(replacement.events.isEmpty)
        primary.send(completion: .failure(.oops))
        #expect(handled == [.oops])
        // The failed upstream is not cancelled (it is done); the replacement starts with the 3 left.
        #expect(primary.events == [.subscribe, .request(.max(5))])
        #expect(replacement.events == [.subscribe, .request(.max(3))])
        replacement.send(3)
        primary.sendKeepingSubscriber(99)
        replacement.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(recorder.subscriptionDescriptions == ["Catch"])
    }

    @Test func upstreamFinishingNeverCallsTheHandler() {
        let primary = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = primary.catch { _ -> TestPublisher<Int, TestError> in
            calls += 1
            return TestPublisher()
        }.record(initialDemand: .max(2))
        primary.send(1)
        primary.send(completion: .finished)
        primary.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(calls == 0)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(primary.events == [.subscribe, .request(.max(2))])
    }

    @Test func outstandingDemandCarriesOverToTheReplacement() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.catch { _ in replacement }.record(initialDemand: .max(12), demandPerValue: .max(3))
        recorder.request(.max(5))
        #expect(primary.events == [.subscribe, .request(.max(12)), .request(.max(5))])
        for value in 1...8 {
            #expect(primary.send(value) == .max(3))
        }
        primary.send(completion: .failure(.oops))
        // 12 + 5 requested, 8 delivered, 8 × 3 returned.
        #expect(replacement.events == [.subscribe, .request(.max(33))])
        #expect(recorder.values == Array(1...8))
    }

    @Test func unlimitedDemandCarriesOverAsUnlimited() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        _ = primary.catch { _ in replacement }.record()
        primary.send(1)
        primary.send(completion: .failure(.oops))
        #expect(replacement.events == [.subscribe, .request(.unlimited)])
    }

    @Test func zeroDemandAtTheSwitchRequestsNothingUntilAsked() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.catch { _ in replacement }.record(initialDemand: nil)
        primary.send(completion: .failure(.oops))
        #expect(primary.events == [.subscribe])
        #expect(replacement.events == [.subscribe])
        recorder.request(.max(12))
        #expect(replacement.events == [.subscribe, .request(.max(12))])
        #expect(replacement.send(100) == .none)
        #expect(recorder.events == [.subscription, .value(100)])
    }

    @Test func limitedDemandIsHonouredAcrossTheSwitch() {
        let primary = TestPublisher<Int, TestError>()
        // Two values before the failure, one demand left, then each value asks for one more.
        let recorder = primary.catch { _ in [3, 2, 1, 0].publisher }
            .record(initialDemand: .max(1), demandPerValue: .max(1))
        for value in 0..<5 { primary.send(value) }
        primary.send(completion: .failure(.oops))
        #expect(
            recorder.events == [
                .subscription, .value(0), .value(1), .value(2), .value(3), .value(4),
                .value(3), .value(2), .value(1), .value(0), .finished,
            ])
    }

    @Test func requestFromInsideTheHandlerJoinsTheReplacementsFirstRequest() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        var recorder: RecordingSubscriber<Int, TestError>?
        recorder = primary.catch { _ in
            recorder?.request(.max(10))
            return replacement
        }.record(initialDemand: .max(3))
        primary.send(1)
        primary.send(completion: .failure(.oops))
        #expect(primary.events == [.subscribe, .request(.max(3))])
        #expect(replacement.events == [.subscribe, .request(.max(12))])
    }

    /// Combine, here, still requests from the replacement and even delivers its completion
    /// after the cancel; the reference keeps the rule "nothing after a cancel".
    @Test func cancelFromInsideTheHandlerSubscribesNothing() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        var recorder: RecordingSubscriber<Int, TestError>?
        recorder = primary.catch { _ in
            recorder?.cancel()
            return replacement
        }.record(initialDemand: .max(3))
        primary.send(completion: .failure(.oops))
        #expect(replacement.events.isEmpty)
        #expect(recorder?.events == [.subscription])
    }

    @Test func cancelBeforeTheFailureReachesUpstreamAndTheHandlerNeverRuns() {
        let primary = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = primary.catch { _ -> TestPublisher<Int, TestError> in
            calls += 1
            return TestPublisher()
        }.record(initialDemand: .max(1), demandPerValue: .max(3))
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(199))
        primary.sendKeepingSubscriber(1)
        primary.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(primary.events == [.subscribe, .request(.max(1)), .cancel])
        #expect(recorder.events == [.subscription])
        #expect(calls == 0)
    }

    @Test func cancelAfterTheSwitchReachesTheReplacement() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.catch { _ in replacement }.record(initialDemand: nil, demandPerValue: .max(3))
        primary.send(completion: .failure(.oops))
        recorder.cancel()
        replacement.sendKeepingSubscriber(1)
        replacement.sendKeepingSubscriber(completion: .finished)
        #expect(primary.events == [.subscribe])
        #expect(replacement.events == [.subscribe, .cancel])
        #expect(recorder.events == [.subscription])
    }

    @Test func cancelFromInsideReceiveDuringTheReplacement() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.catch { _ in replacement }.record(cancelAfterValues: 2)
        primary.send(1)
        primary.send(completion: .failure(.oops))
        replacement.send(2)
        replacement.sendKeepingSubscriber(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(replacement.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func theReplacementsFailureEndsTheStream() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = primary.catch { _ in
            calls += 1
            return replacement
        }.record()
        primary.send(completion: .failure(.oops))
        replacement.send(7)
        replacement.send(completion: .failure(.other))
        #expect(calls == 1)
        #expect(recorder.events == [.subscription, .value(7), .failure(.other)])
    }

    /// As Combine's (OpenCombine's `CatchTests.testCatchUpstreamFailsTwice`, `testCatchRecursion`):
    /// an upstream that completes again after its failure breaks the protocol, and the operator traps.
    @Test func aSecondCompletionFromTheFailedUpstreamTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let primary = TestPublisher<Int, TestError>()
            _ = primary.catch { _ in TestPublisher<Int, TestError>() }.record()
            primary.sendKeepingSubscriber(completion: .failure(.oops))
            primary.sendKeepingSubscriber(completion: .failure(.oops))
        }
        expectTrapMessage(result, contains: "Catch's upstream sent a completion after its failure")
    }

    /// As Combine's (OpenCombine's `CatchTests.testCatchCrashesOnUnwantedInput`): `catch` counts
    /// downstream's demand, and a value beyond it traps.
    @Test func aValueBeyondDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let primary = TestPublisher<Int, TestError>()
            _ = primary.catch { _ in Just(0) }.record(initialDemand: .max(1))
            primary.send(1)
            primary.send(2)
        }
        expectTrapMessage(result, contains: "Catch received a value while downstream had no outstanding demand")
    }

    /// The replacement is held to the same count.
    @Test func aValueBeyondDemandFromTheReplacementTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let primary = TestPublisher<Int, TestError>()
            let replacement = TestPublisher<Int, TestError>()
            _ = primary.catch { _ in replacement }.record(initialDemand: .max(1))
            primary.send(completion: .failure(.oops))
            replacement.send(1)
            replacement.send(2)
        }
        expectTrapMessage(result, contains: "Catch received a value while downstream had no outstanding demand")
    }

    /// As Combine's (OpenCombine's `CatchTests.testCatchReceiveValueBeforeSubscription`).
    @Test func aValueBeforeTheSubscriptionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let held = HeldPublisher<Int, TestError>()
            _ = held.catch { _ in Just(0) }.record()
            _ = held.subscriber?.receive(1)
        }
        expectTrapMessage(result, contains: "Catch received a value before its subscription")
    }

    @Test func failureTypeBecomesTheReplacementsFailure() {
        let primary = TestPublisher<Int, TestError>()
        let caught: Publishers.Catch<TestPublisher<Int, TestError>, Just<Int>> = primary.catch { _ in Just(0) }
        // Failure is Never: the sink without a completion closure is available.
        var values: [Int] = []
        let cancellable = caught.sink { values.append($0) }
        primary.send(1)
        primary.send(completion: .failure(.oops))
        #expect(values == [1, 0])
        cancellable.cancel()
    }

    @Test func laws() {
        OperatorLaws.check { $0.catch { _ in Just(0) } }
        // The same laws once the replacement is the source.
        OperatorLaws.check { replacement in SubscribeThenFail<Int>().catch { _ in replacement } }
    }
}

@Suite struct TryCatchTests {
    @Test func aThrowingHandlerFailsTheStreamWithTheThrownError() {
        let primary = TestPublisher<Int, TestError>()
        var handled: [TestError] = []
        let recorder = primary.tryCatch { error -> Just<Int> in
            handled.append(error)
            throw TestError.other
        }.record()
        primary.send(1)
        primary.send(2)
        primary.send(completion: .failure(.oops))
        primary.sendKeepingSubscriber(-1)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "failure(other)"])
        #expect(primary.events == [.subscribe, .request(.unlimited)])
        #expect(handled == [.oops])
    }

    @Test func aReturnedPublisherReplacesUpstreamWithDemandCarriedOver() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.tryCatch { _ in replacement }.record(initialDemand: .max(4))
        primary.send(1)
        primary.send(completion: .failure(.oops))
        #expect(replacement.events == [.subscribe, .request(.max(3))])
        replacement.send(2)
        replacement.send(completion: .failure(.other))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "failure(other)"])
        #expect(recorder.subscriptionDescriptions == ["TryCatch"])
    }

    @Test func cancelAfterTheSwitchReachesTheReplacement() {
        let primary = TestPublisher<Int, TestError>()
        let replacement = TestPublisher<Int, TestError>()
        let recorder = primary.tryCatch { _ in replacement }.record(initialDemand: .max(1))
        primary.send(completion: .failure(.oops))
        recorder.cancel()
        replacement.sendKeepingSubscriber(5)
        #expect(replacement.events == [.subscribe, .request(.max(1)), .cancel])
        #expect(recorder.trace == ["subscription"])
    }

    @Test func failureTypeIsAnyError() {
        let primary = TestPublisher<Int, TestError>()
        let caught: Publishers.TryCatch<TestPublisher<Int, TestError>, Just<Int>> = primary.tryCatch { _ in Just(0) }
        let recorder: RecordingSubscriber<Int, any Error> = caught.record()
        primary.send(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "value(0)", "finished"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryCatch { _ in Just(0) } }
        OperatorLaws.check { replacement in SubscribeThenFail<Int>().tryCatch { _ in replacement } }
    }
}
