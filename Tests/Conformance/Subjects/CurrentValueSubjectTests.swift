// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CurrentValueSubjectTests {
    typealias IntSubject = CurrentValueSubject<Int, TestError>

    // MARK: The current value

    @Test func currentValueArrivesOnFirstDemandNotBefore() {
        let subject = IntSubject(5)
        let recorder = subject.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        #expect(recorder.subscriptionDescriptions == ["CurrentValueSubject"])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(5)])
    }

    @Test func currentValueIsDeliveredOnceHoweverManyRequests() {
        let subject = IntSubject(-1)
        let recorder = subject.record(initialDemand: nil)
        recorder.request(.max(2))
        recorder.request(.max(3))
        recorder.request(.max(1))
        #expect(recorder.values == [-1])
        for value in 0..<10 { subject.send(value) }
        #expect(recorder.values == [-1, 0, 1, 2, 3, 4])
    }

    @Test func lateSubscriberGetsTheLatestValue() {
        let subject = IntSubject(0)
        subject.send(2)
        #expect(subject.record().values == [2])
        subject.value = 3
        #expect(subject.record().values == [3])
    }

    @Test func valueGetterAndSetter() {
        let subject = IntSubject(1)
        let recorder = subject.record()
        #expect(subject.value == 1)
        subject.value = 2
        #expect(subject.value == 2)
        subject.send(3)
        #expect(subject.value == 3)
        subject.value += 10
        // Setting the same value publishes it again.
        subject.value = subject.value
        #expect(recorder.values == [1, 2, 3, 13, 13])
    }

    @Test func subscriberWithoutDemandGetsTheLatestValueWhenItNextAsks() {
        let subject = IntSubject(0)
        let recorder = subject.record(initialDemand: .max(1))
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
        // Nothing was missed since: asking again brings nothing until the next send.
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
        subject.send(3)
        subject.send(4)
        #expect(recorder.values == [0, 2, 3])
    }

    @Test func fansOutToEverySubscriberWithinItsOwnDemand() {
        let subject = IntSubject(0)
        let unlimited = subject.record()
        let two = subject.record(initialDemand: .max(2))
        let none = subject.record(initialDemand: nil)
        for value in 1...3 { subject.send(value) }
        #expect(unlimited.values == [0, 1, 2, 3])
        #expect(two.values == [0, 1])
        #expect(none.values == [])
    }

    /// `initial` is asked for on subscription; `perValue[i]` is returned for the i-th value
    /// (`.none` past the end). The current value, 20 sends and one re-set of the same value
    /// make 22 offers; `delivered` is how many arrive.
    @Test(arguments: [
        (initial: Subscribers.Demand?.none, perValue: [Subscribers.Demand.max(1)], delivered: 0),
        (initial: .max(1), perValue: [], delivered: 1),
        (initial: .max(1), perValue: Array(repeating: .max(1), count: 10), delivered: 11),
        (initial: .max(2), perValue: [.max(1), .none, .max(1), .none], delivered: 4),
        (initial: .max(2), perValue: [.none, .max(1), .max(2)], delivered: 5),
        (initial: .max(10), perValue: Array(repeating: .max(1), count: 10), delivered: 20),
        (initial: .max(1), perValue: [.unlimited], delivered: 22),
    ])
    func demandReturnedFromReceiveAddsUp(initial: Subscribers.Demand?, perValue: [Subscribers.Demand], delivered: Int) {
        let subject = IntSubject(100)
        var index = 0
        let recorder = subject.record(initialDemand: initial) { _ in
            defer { index += 1 }
            return index < perValue.count ? perValue[index] : .none
        }
        for value in 0..<20 { subject.send(value) }
        subject.value = subject.value
        subject.send(completion: .finished)
        #expect(recorder.values == Array(([100] + Array(0..<20) + [19]).prefix(delivered)))
        #expect(recorder.completions.count == 1)
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = CurrentValueSubject<Int, Never>(1).record(initialDemand: nil)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation")
    }

    // MARK: Completion

    @Test func completionReachesEverySubscriberOnce() {
        let subject = IntSubject(0)
        let unlimited = subject.record()
        let none = subject.record(initialDemand: nil)
        subject.send(completion: .failure(.oops))
        subject.send(completion: .finished)
        #expect(unlimited.events == [.subscription, .value(0), .failure(.oops)])
        #expect(none.events == [.subscription, .failure(.oops)])
    }

    @Test func afterCompletionSendsAreIgnoredAndSettingValueOnlyStoresIt() {
        let subject = IntSubject(0)
        let recorder = subject.record()
        subject.send(completion: .finished)
        subject.send(42)
        #expect(subject.value == 0, "a send after completion does not change the value")
        subject.value = 7
        #expect(subject.value == 7, "setting the value after completion stores it, as in Combine")
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }

    @Test func subscriberArrivingAfterCompletionGetsNoValue() {
        let subject = IntSubject(0)
        subject.send(completion: .finished)
        let late = subject.record()
        #expect(late.events == [.subscription, .finished])
        #expect(late.subscriptionDescriptions == ["Empty"])
    }

    @Test func valueChangesFromInsideReceiveCompletionAreNotPublished() {
        let subject = IntSubject(1)
        let recorder = subject.record()
        var completions = 0
        subject.subscribe(
            AnySubscriber(
                receiveSubscription: { $0.request(.unlimited) },
                receiveCompletion: { _ in
                    completions += 1
                    subject.value = 42
                    subject.send(completion: .failure(.oops))
                }))
        subject.send(completion: .finished)
        #expect(completions == 1)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func completionReleasesSubscriptionAndSubscriber() {
        let subject = IntSubject(0)
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        do {
            let recorder = subject.record(initialDemand: nil)
            weakRecorder = recorder
        }
        #expect(weakRecorder != nil, "a live subscription keeps its subscriber")
        subject.send(completion: .failure(.other))
        #expect(weakRecorder == nil)
    }

    // MARK: Cancel

    @Test func cancelledSubscriberReceivesNothingMoreWhileOthersContinue() {
        let subject = IntSubject(0)
        let cancelled = subject.record()
        let other = subject.record()
        let subscription = cancelled.subscription
        cancelled.cancel()
        subscription?.request(.max(1))
        subject.value = 1
        #expect(cancelled.events == [.subscription, .value(0)])
        #expect(other.values == [0, 1])
    }

    @Test func subjectDoesNotKeepACancelledSubscriberAlive() {
        let subject = IntSubject(0)
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        weak var weakSubscription: AnyObject?
        do {
            let recorder = subject.record()
            weakRecorder = recorder
            weakSubscription = recorder.firstSubscription
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Re-entrancy

    @Test func settingTheValueFromInsideReceive() {
        let subject = IntSubject(0)
        let setter = subject.record()
        let bystander = subject.record()
        setter.onValue = { value in
            if value == 1 { subject.value = 2 }
        }
        subject.value = 1
        #expect(setter.values == [0, 1, 2])
        #expect(bystander.values == [0, 2, 1])
        #expect(subject.value == 2)
    }

    @Test func subscriberCancellingItselfInsideReceiveGetsNothingMore() {
        let subject = IntSubject(0)
        let quitter = subject.record(cancelAfterValues: 2)
        let other = subject.record()
        for value in 1...3 { subject.send(value) }
        #expect(quitter.values == [0, 1])
        #expect(other.values == [0, 1, 2, 3])
    }

    @Test func subscriberAddedFromInsideReceiveGetsTheCurrentValue() {
        let subject = IntSubject(0)
        let newcomer = RecordingSubscriber<Int, TestError>()
        let host = subject.record()
        host.onValue = { value in
            if value == 1 { subject.subscribe(newcomer) }
        }
        subject.send(1)
        subject.send(2)
        #expect(newcomer.values == [1, 2])
    }

    /// The current value is delivered from inside `request`, before `request` returns.
    @Test func subscribingAgainFromInsideReceiveSubscription() {
        let subject = IntSubject(112)
        let subscriber = ResubscribingSubscriber(subject: subject, subscriptions: 3)
        subject.subscribe(subscriber)
        #expect(
            subscriber.events == [.value(112), .subscription, .value(112), .subscription, .value(112), .subscription])
        subscriber.subscriptions[0].cancel()
        subject.value = 200
        #expect(subscriber.values == [112, 112, 112, 200, 200])
    }

    // MARK: Upstream subscriptions

    @Test func upstreamSubscriptionsAreAskedForEverythingAtOnce() {
        let subject = IntSubject(1)
        let upstream = RecordingSubscription()
        subject.send(subscription: upstream)
        #expect(upstream.events == [.request(.unlimited)], "asked even before any subscriber")
        _ = subject.record(initialDemand: .max(1))
        #expect(upstream.events == [.request(.unlimited)])
        subject.send(subscription: upstream)
        #expect(upstream.events == [.request(.unlimited), .request(.unlimited)])
    }

    @Test func upstreamSubscriptionsAreCancelledWhenTheSubjectGoesAway() {
        let upstream = RecordingSubscription()
        do {
            let subject = IntSubject(1)
            for _ in 0..<2 { subject.send(subscription: upstream) }
        }
        #expect(upstream.events == [.request(.unlimited), .request(.unlimited), .cancel, .cancel])
    }

    // MARK: Threads

    @Test func concurrentSendsWhileSubscribersComeAndGo() {
        SubjectStress.run(CurrentValueSubject<Int, Never>(-1), currentValue: -1)
    }

    @Test func duplicateCheckAllowsOnlyTheFirstValueRace() {
        #expect(SubjectStress.duplicates(in: [5, 5, 6], currentValue: -1).isEmpty)
        #expect(SubjectStress.duplicates(in: [5, 5, 6], currentValue: nil) == [5])
        #expect(SubjectStress.duplicates(in: [-1, 5, 5], currentValue: -1) == [5])
        #expect(SubjectStress.duplicates(in: [5, 6, 5, 5], currentValue: -1) == [5])
    }
}
