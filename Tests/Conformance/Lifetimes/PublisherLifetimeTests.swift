// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

// The lifetime law for the sources and subjects, and for the chains Sluice runs fused.

@Suite struct SourceLifetimeTests {
    @Test func synchronousSources() {
        LifetimeLaws.checkSource { _ in Just(1) }
        LifetimeLaws.checkSource { _ in [1, 2, 3].publisher }
        LifetimeLaws.checkSource { _ in Optional(1).publisher }
        LifetimeLaws.checkSource { _ in Result<Int, TestError>.success(1).publisher }
        LifetimeLaws.checkSource { _ in Fail<Int, TestError>(error: .oops) }
        LifetimeLaws.checkSource { _ in Empty<Int, TestError>(completeImmediately: true) }
        LifetimeLaws.checkSource { _ in Record<Int, TestError>(output: [1, 2], completion: .failure(.oops)) }
        LifetimeLaws.checkSource { _ in Just(1).eraseToAnyPublisher() }
    }

    @Test func fusedChains() {
        LifetimeLaws.checkSource { captured in
            [1, 2, 3].publisher.map {
                captured.touch(); return $0 * 2
            }
        }
        LifetimeLaws.checkSource { captured in
            Just(1).map {
                captured.touch(); return $0
            }.filter { _ in
                captured.touch(); return true
            }
        }
        LifetimeLaws.checkSource { captured in
            (1...5).publisher.scan(0) {
                captured.touch(); return $0 + $1
            }.compactMap {
                captured.touch(); return $0
            }
        }
        LifetimeLaws.checkSource { captured in
            [1, 2, 3].publisher.reduce(0) {
                captured.touch(); return $0 + $1
            }
        }
    }

    /// A fused chain cancelled from inside `receive` lets go of its subscriber and closures.
    @Test func aFusedChainCancelledInsideReceive() {
        weak var weakSubscriber: HoldingSubscriber<Int, Never>?
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            let subscriber = HoldingSubscriber<Int, Never>(cancelsOnFirstValue: true)
            weakCaptured = captured
            weakSubscriber = subscriber
            [1, 2, 3].publisher.map {
                captured.touch(); return $0 * 2
            }.subscribe(subscriber)
            #expect(subscriber.values == 1)
        }
        #expect(weakSubscriber == nil)
        #expect(weakCaptured == nil)
    }

    @Test func deferredReleasesItsSubscriber() {
        LifetimeLaws.checkSource { captured in
            Deferred {
                captured.touch(); return Just(1)
            }
        }
        let subject = PassthroughSubject<Int, Never>()
        LifetimeLaws.checkSource(end: { _ in subject.send(completion: .finished) }) { captured in
            Deferred {
                captured.touch(); return subject
            }
        }
    }

    @Test func futureReleasesItsSubscribersWhenItsPromiseIsFulfilledOrTheyCancel() {
        for fulfils in [false, true] {
            var promise: Future<Int, TestError>.Promise?
            let future = Future<Int, TestError> { promise = $0 }
            weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
            do {
                let subscriber = HoldingSubscriber<Int, TestError>()
                weakSubscriber = subscriber
                future.subscribe(subscriber)
            }
            if fulfils {
                promise?(.success(1))
            } else {
                weakSubscriber?.subscription?.cancel()
            }
            #expect(weakSubscriber == nil)
        }
    }
}

@Suite struct SubjectLifetimeTests {
    @Test func subjectsLetGoOfTheirSubscribers() {
        LifetimeLaws.checkSource(end: { $0.send(completion: .finished) }) { _ in PassthroughSubject<Int, TestError>() }
        LifetimeLaws.checkSource(end: { $0.send(completion: .failure(.oops)) }) { _ in
            PassthroughSubject<Int, TestError>()
        }
        LifetimeLaws.checkSource(end: { $0.send(completion: .finished) }) { _ in CurrentValueSubject<Int, TestError>(0)
        }
        LifetimeLaws.checkSource(end: { $0.send(completion: .failure(.oops)) }) { _ in
            CurrentValueSubject<Int, TestError>(0)
        }
    }

    @Test func aSubscriberThatLeavesIsFreedWhileTheOthersStay() {
        let subject = PassthroughSubject<Int, Never>()
        let stays = subject.record()
        weak var weakSubscriber: HoldingSubscriber<Int, Never>?
        do {
            let subscriber = HoldingSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.map { $0 + 1 }.subscribe(subscriber)
        }
        subject.send(1)
        weakSubscriber?.subscription?.cancel()
        #expect(weakSubscriber == nil)
        for _ in 0...100 { subject.send(2) }
        #expect(stays.values.count == 102)
    }

    @Test func aSubscriberThatCancelsInsideReceiveIsFreed() {
        for current in [false, true] {
            let passthrough = PassthroughSubject<Int, Never>()
            let currentValue = CurrentValueSubject<Int, Never>(0)
            let stays = current ? currentValue.record() : passthrough.record()
            weak var weakSubscriber: HoldingSubscriber<Int, Never>?
            weak var weakCaptured: Captured?
            do {
                let captured = Captured()
                let subscriber = HoldingSubscriber<Int, Never>(cancelsOnFirstValue: true)
                weakSubscriber = subscriber
                weakCaptured = captured
                let subject: AnyPublisher<Int, Never> =
                    current ? currentValue.eraseToAnyPublisher() : passthrough.eraseToAnyPublisher()
                subject.filter { _ in
                    captured.touch(); return true
                }.subscribe(subscriber)
            }
            if current { currentValue.send(1) } else { passthrough.send(1) }
            #expect(weakSubscriber == nil)
            #expect(weakCaptured == nil)
            #expect(stays.values.last == 1)
        }
    }

    /// A completion sent to several subscribers frees every one of them, and the subject lets go
    /// of the upstream subscriptions it was handed.
    @Test func completionDuringAFanOutFreesEverySubscriber() {
        let subject = PassthroughSubject<Int, TestError>()
        let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
        let relay = upstream.subscribe(subject)
        var weakSubscribers: [() -> AnyObject?] = []
        for index in 0..<3 {
            let subscriber = HoldingSubscriber<Int, TestError>()
            weakSubscribers.append { [weak subscriber] in subscriber }
            if index == 1 {
                subject.map { $0 }.subscribe(subscriber)
            } else {
                subject.subscribe(subscriber)
            }
        }
        upstream.send(1)
        upstream.send(completion: .finished)
        for weakSubscriber in weakSubscribers { #expect(weakSubscriber() == nil) }
        relay.cancel()
    }

    /// As Combine's: an active subscription keeps its subject alive, so the subject is freed after
    /// its last active subscription ends (by a cancel, or by the subject's completion), not before.
    @Test(arguments: [false, true])
    func anActiveSubscriptionKeepsItsSubjectUntilItEnds(byCompletion: Bool) throws {
        weak var weakPassthrough: PassthroughSubject<Int, TestError>?
        weak var weakCurrentValue: CurrentValueSubject<Int, TestError>?
        let first = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
        let second = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
        do {
            let passthrough = PassthroughSubject<Int, TestError>()
            let currentValue = CurrentValueSubject<Int, TestError>(0)
            weakPassthrough = passthrough
            weakCurrentValue = currentValue
            passthrough.subscribe(first)
            currentValue.subscribe(second)
        }
        #expect(weakPassthrough != nil)
        #expect(weakCurrentValue != nil)
        weakPassthrough?.send(1)
        #expect(first.values == [1])
        if byCompletion {
            weakPassthrough?.send(completion: .finished)
            weakCurrentValue?.send(completion: .finished)
        } else {
            try #require(first.subscription).cancel()
            try #require(second.subscription).cancel()
        }
        #expect(weakPassthrough == nil)
        #expect(weakCurrentValue == nil)
    }

    @Test func aPublishedPropertysSubscriptionDoesNotKeepItsObject() {
        final class Model: ObservableObject {
            @Published var value = 0
        }
        weak var weakModel: Model?
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
        do {
            let model = Model()
            weakModel = model
            model.$value.subscribe(recorder)
            model.value = 1
        }
        #expect(weakModel == nil)
        #expect(recorder.values == [0, 1])
        recorder.cancel()
    }

    @Test func aSubjectSubscriberLetsGoOfItsSubjectWhenCancelled() {
        let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
        weak var weakSubject: PassthroughSubject<Int, TestError>?
        let relay: AnyCancellable
        do {
            let subject = PassthroughSubject<Int, TestError>()
            weakSubject = subject
            relay = upstream.subscribe(subject)
        }
        relay.cancel()
        #expect(weakSubject == nil)
        #expect(upstream.events.last == .cancel)
    }
}
