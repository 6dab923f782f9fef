// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct RetryTests {
    @Test func retryThreeTimesMakesFourAttemptsWithTheDemandCarriedOver() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(3).record(initialDemand: .max(5))
        let subscription = recorder.subscription
        #expect(upstream.subscriptionCount == 1)
        var expectedTraffic: [TestPublisher<Int, TestError>.Event] = [.subscribe, .request(.max(5))]
        #expect(upstream.events == expectedTraffic)
        for attempt in 1...3 {
            #expect(upstream.send(attempt) == .none)
            upstream.send(completion: .failure(.oops))
            #expect(upstream.subscriptionCount == attempt + 1)
            // Each new attempt asks for what downstream still wants: one less each time.
            expectedTraffic += [.subscribe, .request(.max(5 - attempt))]
            #expect(upstream.events == expectedTraffic)
        }
        upstream.send(4)
        upstream.send(completion: .failure(.other))
        #expect(upstream.subscriptionCount == 4)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .failure(.other)])
        subscription?.request(.max(112))
        #expect(upstream.events == expectedTraffic)
        #expect(recorder.subscriptionDescriptions == ["Retry"])
    }

    /// R42 / T9: `Fail.print("(1)>").retry(3).print("(2)>")` subscribes four times upstream and
    /// fails once downstream. With synchronous demand (R24) every attempt is asked for the
    /// outstanding `unlimited` before it fails.
    @Test func seedOracleThroughPrint() {
        let log = RetryLog()
        let recorder = SubscribeThenFail<String>().print("(1)>", to: log).retry(3).print("(2)>", to: log).record()
        let attempt = ["(1)>: receive subscription: (Empty)", "(1)>: request unlimited", "(1)>: receive error: (oops)"]
        #expect(
            log.lines == [
                "(1)>: receive subscription: (Empty)",
                "(2)>: receive subscription: (Retry)",
                "(2)>: request unlimited",
                "(1)>: request unlimited",
                "(1)>: receive error: (oops)",
            ] + attempt + attempt + attempt + ["(2)>: receive error: (oops)"])
        #expect(recorder.trace == ["subscription", "failure(oops)"])
    }

    @Test func zeroRetriesPassesTheFirstFailureOn() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(0).record(initialDemand: .max(1))
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func finishingAfterARetryEndsTheStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(3).record(initialDemand: .max(4))
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        upstream.send(3)
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(4)), .subscribe, .request(.max(2))])
    }

    @Test func unlimitedDemandCarriesOverAsUnlimited() {
        let upstream = TestPublisher<Int, TestError>()
        _ = upstream.retry(1).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.events == [.subscribe, .request(.unlimited), .subscribe, .request(.unlimited)])
    }

    @Test func zeroDemandIsNotRequestedFromTheNextAttempt() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(2).record(initialDemand: nil)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.events == [.subscribe, .subscribe])
        recorder.request(.max(2))
        #expect(upstream.events == [.subscribe, .subscribe, .request(.max(2))])
        upstream.send(9)
        #expect(recorder.events == [.subscription, .value(9)])
    }

    /// As Combine's (OpenCombine's `RetryTests.testPreservesDemand`): the demand downstream returns
    /// for a value goes upstream as a request of its own, not as the answer, and counts towards
    /// the next attempt.
    @Test func demandReturnedFromReceiveIsRequestedAndCountsTowardsTheNextAttempt() {
        let upstream = TestPublisher<Int, TestError>()
        _ = upstream.retry(1).record(initialDemand: .max(3), demandPerValue: .max(2))
        #expect(upstream.send(1) == .none)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(2))])
        upstream.send(completion: .failure(.oops))
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(2)), .subscribe, .request(.max(4))])
    }

    /// As Combine's (OpenCombine's `RetryTests.testCrashesOnUnwantedValue`).
    @Test func aValueBeyondDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, TestError>()
            _ = upstream.retry(1).record(initialDemand: .max(1))
            upstream.send(1)
            upstream.send(2)
        }
        expectTrapMessage(result, contains: "Retry received a value while downstream had no outstanding demand")
    }

    /// As Combine's (OpenCombine's `RetryTests.testRecurseAndReceiveValue`): a value a later
    /// attempt sends before its subscription comes is delivered, and counts.
    @Test func aLaterAttemptsValueBeforeItsSubscriptionIsDelivered() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.retry(1).record(initialDemand: .max(3), demandPerValue: .max(2))
        let first = TestPublisher<Int, TestError>()
        first.subscribe(try #require(held.subscriber))
        #expect(first.events == [.subscribe, .request(.max(3))])
        try #require(held.subscriber).receive(completion: .failure(.oops))
        #expect(try #require(held.subscriber).receive(7) == .none)
        #expect(recorder.values == [7])
        let second = TestPublisher<Int, TestError>()
        second.subscribe(try #require(held.subscriber))
        #expect(second.events == [.subscribe, .request(.max(4))])
    }

    @Test func aNegativeCountOrNilRetriesWithoutLimit() {
        for retry in [
            TestPublisher<Int, TestError>().retry(-1),
            Publishers.Retry(upstream: TestPublisher<Int, TestError>(), retries: nil),
        ] {
            let upstream = retry.upstream
            let recorder = retry.record(initialDemand: .max(1))
            for _ in 0..<1000 { upstream.send(completion: .failure(.oops)) }
            upstream.send(0)
            #expect(upstream.subscriptionCount == 1001)
            let attempt: [TestPublisher<Int, TestError>.Event] = [.subscribe, .request(.max(1))]
            #expect(upstream.events == Array(repeating: attempt, count: 1001).flatMap { $0 })
            #expect(recorder.events == [.subscription, .value(0)])
        }
    }

    /// Attempts that fail inside `subscribe` are started one after another, not one inside the
    /// other: a hundred thousand of them would otherwise overflow the stack.
    @Test func synchronousFailuresDoNotDeepenTheStack() {
        let upstream = SubscribeThenFail<Int>()
        let recorder = upstream.retry(100_000).record()
        #expect(upstream.subscriptionCount == 100_001)
        #expect(recorder.trace == ["subscription", "failure(oops)"])
    }

    @Test func cancelMidStreamReachesTheCurrentAttemptAndStopsRetrying() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(3).record(initialDemand: .max(2))
        upstream.send(completion: .failure(.oops))
        upstream.send(1)
        recorder.cancel()
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(upstream.subscriptionCount == 2)
        #expect(upstream.events == [.subscribe, .request(.max(2)), .subscribe, .request(.max(2)), .cancel])
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func cancelFromInsideReceiveDuringALaterAttempt() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(3).record(cancelAfterValues: 2)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        upstream.send(2)
        upstream.sendKeepingSubscriber(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .subscribe, .request(.unlimited), .cancel])
    }

    @Test func requestFromInsideReceiveGoesToTheCurrentAttempt() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        upstream.retry(1).subscribe(recorder)
        upstream.send(completion: .failure(.oops))
        upstream.send(1)
        #expect(upstream.events == [.subscribe, .request(.max(1)), .subscribe, .request(.max(1)), .request(.max(1))])
        #expect(recorder.values == [1])
    }

    /// As in Combine, every attempt has the same subscriber, the subscription itself (OpenCombine's
    /// RetryTests reach it as one): an attempt ends with its completion, and what comes after is
    /// the next attempt's, whoever sends it.
    @Test func everyAttemptHasTheSameSubscriber() throws {
        let held = HeldPublisher<Int, TestError>()
        _ = held.retry(2).record()
        let subscriber = try #require(held.subscriberAsSubscription)
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.retry(2).record()
        let firstAttempt = upstream.subscriber
        upstream.send(completion: .failure(.oops))
        #expect(upstream.subscriptionCount == 2)
        #expect(firstAttempt?.receive(5) == Subscribers.Demand.none)
        firstAttempt?.receive(completion: .failure(.oops))
        #expect(upstream.subscriptionCount == 3)
        firstAttempt?.receive(completion: .finished)
        #expect(recorder.events == [.subscription, .value(5), .finished])
        #expect(String(describing: subscriber) == "Retry")
    }

    @Test func equatableWhenUpstreamIs() {
        #expect(
            Publishers.Retry(upstream: [1, 2].publisher, retries: 2)
                == Publishers.Retry(upstream: [1, 2].publisher, retries: 2))
        #expect(
            Publishers.Retry(upstream: [1, 2].publisher, retries: 2)
                != Publishers.Retry(upstream: [1, 2].publisher, retries: nil))
    }

    @Test func laws() {
        OperatorLaws.check { $0.retry(2) }
    }
}

/// A publisher that fails as soon as it is subscribed to, as `Fail` does: an empty subscription,
/// then `.failure(.oops)`. It counts its subscriptions.
final class SubscribeThenFail<Output>: Publisher {
    typealias Failure = TestError

    private(set) var subscriptionCount = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == TestError {
        subscriptionCount += 1
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(.oops))
    }
}

/// Collects what `print` writes, as lines.
private final class RetryLog: TextOutputStream {
    private var text = ""

    func write(_ string: String) { text += string }

    var lines: [String] { text.split(separator: "\n").map(String.init) }
}
