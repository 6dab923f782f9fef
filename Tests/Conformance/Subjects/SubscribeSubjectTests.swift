// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// `publisher.subscribe(subject)`: the subject republishes what the publisher sends.
@Suite struct SubscribeSubjectTests {
    @Test func valuesAndCompletionFlowThroughTheSubject() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let first = subject.record()
        let second = subject.record(initialDemand: .max(1))
        let token = upstream.subscribe(subject)
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(upstream.send(1) == .none, "the subject asks for everything up front, never per value")
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(first.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        #expect(second.events == [.subscription, .value(1), .failure(.oops)])
        let late = subject.record()
        #expect(late.events == [.subscription, .failure(.oops)])
        token.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "nothing to cancel after completion")
    }

    @Test func passthroughSubjectAsksUpstreamOnlyOnceSomeSubscriberAsks() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let token = upstream.subscribe(subject)
        #expect(upstream.events == [.subscribe])
        let recorder = subject.record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(5)
        #expect(recorder.values == [5])
        withExtendedLifetime(token) {}
    }

    @Test func currentValueSubjectAsksUpstreamAtOnce() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = CurrentValueSubject<Int, TestError>(0)
        let token = upstream.subscribe(subject)
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(3)
        #expect(subject.value == 3)
        #expect(subject.record().values == [3])
        upstream.send(completion: .finished)
        #expect(subject.record().events == [.subscription, .finished])
        withExtendedLifetime(token) {}
    }

    @Test func subjectSubscriptionDescribesItselfAsSubject() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let token = upstream.subscribe(subject)
        #expect(upstream.subscriber?.description == "Subject")
        withExtendedLifetime(token) {}
    }

    @Test func theReturnedCancellableCancelsUpstreamOnce() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.record()
        let token = upstream.subscribe(subject)
        upstream.send(1)
        token.cancel()
        token.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        // An upstream that keeps sending after the cancel is no longer heard.
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        // The subject itself goes on: it can still be sent to directly.
        subject.send(3)
        #expect(recorder.values == [1, 3])
    }

    @Test func requestAfterCancelIsNotForwardedUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let token = upstream.subscribe(subject)
        token.cancel()
        _ = subject.record()
        #expect(upstream.events == [.subscribe, .cancel])
    }

    @Test func droppingTheCancellableCancelsUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        _ = upstream.subscribe(subject)
        #expect(upstream.events == [.subscribe, .cancel])
    }

    @Test func subjectIsReleasedAfterCancelOrCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        weak var cancelledSubject: PassthroughSubject<Int, TestError>?
        weak var completedSubject: PassthroughSubject<Int, TestError>?
        var keep: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, TestError>()
            cancelledSubject = subject
            upstream.subscribe(subject).cancel()
        }
        do {
            let subject = PassthroughSubject<Int, TestError>()
            completedSubject = subject
            keep = upstream.subscribe(subject)
            upstream.send(completion: .finished)
        }
        #expect(cancelledSubject == nil)
        #expect(completedSubject == nil)
        withExtendedLifetime(keep) {}
    }

    @Test func subjectsChain() {
        let source = PassthroughSubject<Int, TestError>()
        let middle = CurrentValueSubject<Int, TestError>(0)
        let token = source.subscribe(middle)
        let recorder = middle.record()
        source.send(1)
        source.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0), .value(1), .finished])
        withExtendedLifetime(token) {}
    }

    @Test func secondUpstreamSubscriptionIsCancelled() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = AnySubscriber(subject)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
        #expect(first.events == [])
        #expect(second.events == [.cancel])
    }

    /// As Combine's (OpenCombine's MulticastTests.testDeallocateConnectedMulticastBeforeCancelling;
    /// its pull request 187: "this is how it is in Combine"), the relay does not keep its subject:
    /// a subject nobody else holds is freed, and its deinit cancels the relay, which cancels
    /// upstream. (The differential fuzzer once found that cancel spinning on the relay's lock.)
    @Test func theRelayDoesNotKeepItsSubjectAndAFreedSubjectCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        weak var released: PassthroughSubject<Int, Never>?
        var token: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            released = subject
            token = upstream.subscribe(subject)
            #expect(upstream.events == [.subscribe])
        }
        #expect(released == nil)
        #expect(upstream.events == [.subscribe, .cancel])
        token?.cancel()
        #expect(upstream.events == [.subscribe, .cancel])
    }
}
