// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ConcatenateTests {
    @Test func thePrefixIsSubscribedFirstAndTheSuffixOnlyWhenThePrefixFinishes() {
        // Combine subscribes the prefix, then hands downstream its subscription when the prefix's
        // arrives, so downstream's first request goes straight to the prefix.
        let log = TrafficLog()
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let subscriber = LoggingSubscriber<Int, TestError>(log: log, initialDemand: .max(10))
        prefix.logging(as: "prefix", into: log).append(suffix.logging(as: "suffix", into: log)).subscribe(subscriber)
        #expect(log.entries == ["prefix subscribe", "downstream subscription", "prefix request(max(10))"])
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(
            log.entries == [
                "prefix subscribe", "downstream subscription", "prefix request(max(10))",
                "downstream value(1)", "suffix subscribe", "suffix request(max(9))",
            ])
    }

    /// Concatenations nested through `AnyPublisher` (how a loop builds a chain of appends) run as
    /// one list of parts: each part is subscribed only once the one before has finished, and is
    /// asked for exactly what downstream asked for and has not received.
    @Test func concatenationsNestedThroughAnyPublisherRunAsOneList() {
        let first = TestPublisher<Int, TestError>()
        let second = TestPublisher<Int, TestError>()
        let third = TestPublisher<Int, TestError>()
        let chain = first.eraseToAnyPublisher().append(second).eraseToAnyPublisher().append(third)
            .eraseToAnyPublisher()
        let recorder = chain.record(initialDemand: .max(3))
        #expect(first.events == [.subscribe, .request(.max(3))])
        #expect(first.send(1) == .none)
        first.send(completion: .finished)
        #expect(second.events == [.subscribe, .request(.max(2))])
        #expect(third.events == [])
        #expect(second.send(2) == .none)
        second.send(completion: .finished)
        #expect(third.events == [.subscribe, .request(.max(1))])
        #expect(third.send(3) == .none)
        third.send(completion: .finished)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completions == [.finished])
    }

    /// A chain of 10,000 appends built in a loop delivers every value in order under `.max(1)`
    /// demand, with one subscription, and a cancel stops it and lets go of the parts not yet run.
    @Test func aLongChainOfAppendsRunsAsOneList() {
        var chain = Just(0).setFailureType(to: TestError.self).eraseToAnyPublisher()
        for value in 1..<10_000 { chain = chain.append(value).eraseToAnyPublisher() }
        let recorder = chain.record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == Array(0..<10_000))
        #expect(recorder.completions == [.finished])
        let cancelled = chain.record(initialDemand: .max(5))
        cancelled.cancel()
        #expect(cancelled.values == Array(0..<5))
        #expect(cancelled.completions.isEmpty)
    }

    @Test func aSynchronousPrefixDeliversInsideDownstreamsFirstRequest() {
        // The request made inside `receive(subscription:)` reaches the sequence at once, so its
        // values (and the suffix's) arrive before `receive(subscription:)` returns.
        let suffix = TestPublisher<Int, TestError>()
        var deliveredDuringSubscription: [Int] = []
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: nil)
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { subscription in
                recorder.receive(subscription: subscription)
                subscription.request(.unlimited)
                deliveredDuringSubscription = recorder.values
            },
            receiveValue: { recorder.receive($0) },
            receiveCompletion: { recorder.receive(completion: $0) })
        suffix.prepend(1, 2).subscribe(subscriber)
        #expect(deliveredDuringSubscription == [1, 2])
        #expect(suffix.events == [.subscribe, .request(.unlimited)])
    }

    @Test func aPrefixThatEndsBeforeItsSubscriptionIsIgnored() {
        let prefix = SilentPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
        prefix.append(suffix).subscribe(recorder)
        prefix.send(1)
        prefix.finish()
        #expect(recorder.events == [])
        #expect(suffix.events == [])
    }

    @Test func aSuffixThatSendsBeforeItsSubscriptionIsIgnored() {
        let suffix = SilentPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
        suffix.prepend(1).subscribe(recorder)
        suffix.send(2)
        suffix.finish()
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func outstandingDemandCarriesOverToTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record(initialDemand: .max(10), demandPerValue: { .max($0) })
        #expect(prefix.events == [.subscribe, .request(.max(10))])
        #expect(prefix.send(1) == .max(1))
        #expect(prefix.send(2) == .max(2))
        #expect(prefix.send(3) == .max(3))
        #expect(suffix.events == [])
        prefix.send(completion: .finished)
        // 10 asked, 3 received, 1 + 2 + 3 asked again.
        #expect(suffix.events == [.subscribe, .request(.max(13))])
        #expect(suffix.send(5) == .max(5))
        recorder.request(.unlimited)
        suffix.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(5), .finished])
        #expect(prefix.events == [.subscribe, .request(.max(10))])
        #expect(suffix.events == [.subscribe, .request(.max(13)), .request(.unlimited)])
    }

    @Test func exhaustedDemandIsNotRequestedFromTheSuffixUntilDownstreamAsks() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record(initialDemand: .max(2))
        prefix.send(1)
        prefix.send(2)
        prefix.send(completion: .finished)
        #expect(suffix.events == [.subscribe])
        recorder.request(.max(3))
        #expect(suffix.events == [.subscribe, .request(.max(3))])
        suffix.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func unlimitedDemandStaysUnlimited() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        _ = prefix.append(suffix).record()
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.events == [.subscribe, .request(.unlimited)])
    }

    @Test func zeroDemandDeliversNothing() {
        let recorder = [1, 2].publisher.append(3, 4).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func aPrefixValueBeyondTheDemandIsNotDelivered() {
        let prefix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(TestPublisher<Int, TestError>()).record(initialDemand: .max(1))
        #expect(prefix.send(1) == .none)
        #expect(prefix.send(2) == .none)
        #expect(recorder.values == [1])
    }

    @Test func prefixFailureEndsTheStreamWithoutSubscribingTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record()
        prefix.send(1)
        prefix.send(completion: .failure(.oops))
        prefix.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
        #expect(suffix.events == [])
    }

    @Test func suffixFailurePassesThrough() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record()
        prefix.send(completion: .finished)
        suffix.send(1)
        suffix.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .value(1), .failure(.other)])
    }

    @Test func cancelDuringThePrefixNeverSubscribesTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record(initialDemand: .max(2))
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(3))
        prefix.sendKeepingSubscriber(1)
        prefix.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription])
        #expect(prefix.events == [.subscribe, .request(.max(2)), .cancel])
        #expect(suffix.events == [])
    }

    @Test func cancelDuringTheSuffixReachesOnlyTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record()
        prefix.send(completion: .finished)
        suffix.send(1)
        recorder.cancel()
        suffix.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(prefix.events == [.subscribe, .request(.unlimited)])
        #expect(suffix.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func cancelLetsGoOfTheSuffixThatNeverRan() {
        let prefix = TestPublisher<Int, TestError>()
        weak var weakSuffix: TestPublisher<Int, TestError>?
        var recorder: RecordingSubscriber<Int, TestError>?
        do {
            let suffix = TestPublisher<Int, TestError>()
            weakSuffix = suffix
            recorder = prefix.append(suffix).record()
        }
        #expect(weakSuffix != nil)
        recorder?.cancel()
        #expect(weakSuffix == nil)
    }

    @Test func reentrantPrefixValuesRespectTheDemand() {
        let prefix = TestPublisher<Int, TestError>()
        let recorder = prefix.append().record(initialDemand: .max(3))
        var depth = 0
        recorder.onValue = { value in
            guard depth < 10 else { return }
            depth += 1
            #expect(prefix.send(value + 1) == .none)
        }
        prefix.send(1)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func demandReturnedAfterThePrefixFinishedFromInsideReceiveGoesToTheSuffix() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record(initialDemand: .max(1), demandPerValue: .max(2))
        recorder.onValue = { value in if value == 1 { prefix.send(completion: .finished) } }
        #expect(prefix.send(1) == .none)
        #expect(suffix.events == [.subscribe, .request(.max(2))])
        suffix.send(2)
        suffix.send(3)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func aSecondSubscriptionFromAnUpstreamIsCancelled() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let intruder = TestPublisher<Int, TestError>()
        _ = prefix.append(suffix).record()
        prefix.subscriber?.receive(subscription: intruder.makeSubscription())
        #expect(intruder.events == [.cancel])
        prefix.send(completion: .finished)
        suffix.subscriber?.receive(subscription: intruder.makeSubscription())
        #expect(intruder.events == [.cancel, .cancel])
        #expect(suffix.events == [.subscribe, .request(.unlimited)])
    }

    @Test func innerSubscribersShareTheSubscriptionsIdentifier() {
        let prefix = TestPublisher<Int, TestError>()
        let suffix = TestPublisher<Int, TestError>()
        let recorder = prefix.append(suffix).record()
        let identifier = recorder.subscription?.combineIdentifier
        #expect(identifier != nil)
        #expect(prefix.subscriber?.combineIdentifier == identifier)
        prefix.send(completion: .finished)
        #expect(suffix.subscriber?.combineIdentifier == identifier)
    }

    @Test func appendAndPrependInAllTheirForms() {
        let upstream = TestPublisher<Int, TestError>()
        #expect(upstream.append(2, 3, 5, 7).suffix.sequence == [2, 3, 5, 7])
        #expect(upstream.append(CollectionOfOne(42)).suffix.sequence.first == 42)
        #expect(upstream.prepend(7, 5).prefix.sequence == [7, 5])
        #expect(upstream.prepend(CollectionOfOne(42)).prefix.sequence.first == 42)
        let other = TestPublisher<Int, TestError>()
        #expect(upstream.append(other).prefix === upstream)
        #expect(upstream.append(other).suffix === other)
        #expect(upstream.prepend(other).prefix === other)
        #expect(upstream.prepend(other).suffix === upstream)

        let appended = upstream.append(8, 9).record()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(appended.events == [.subscription, .value(1), .value(8), .value(9), .finished])

        let later = TestPublisher<Int, TestError>()
        let prepended = later.prepend(0..<2).record()
        #expect(prepended.values == [0, 1])
        #expect(later.events == [.subscribe, .request(.unlimited)])
        later.send(2)
        later.send(completion: .finished)
        #expect(prepended.events == [.subscription, .value(0), .value(1), .value(2), .finished])
    }

    @Test func twoSequencesInARow() {
        let first = Publishers.Sequence<[Int], Never>(sequence: [1, 2, 4])
        let second = Publishers.Sequence<ClosedRange<Int>, Never>(sequence: 5...6)
        let recorder = Publishers.Concatenate(prefix: first, suffix: second.map { $0 * 10 }).record()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(4), .value(50), .value(60), .finished])
    }

    @Test func publisherComparesByItsParts() {
        let concatenated = Publishers.Concatenate(prefix: Just(1), suffix: Just(2))
        #expect(concatenated == Publishers.Concatenate(prefix: Just(1), suffix: Just(2)))
        #expect(concatenated != Publishers.Concatenate(prefix: Just(1), suffix: Just(3)))
    }

    @Test func laws() {
        OperatorLaws.check { $0.append(10, 20) }
        OperatorLaws.check { $0.prepend(0) }
        OperatorLaws.check { $0.append([Int]()) }
    }
}

/// A misbehaving publisher that never sends a subscription, yet sends values and a completion.
private final class SilentPublisher<Output, Failure: Error>: Publisher {
    private var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
    }

    func send(_ value: Output) { _ = subscriber?.receive(value) }

    func finish() { subscriber?.receive(completion: .finished) }
}
