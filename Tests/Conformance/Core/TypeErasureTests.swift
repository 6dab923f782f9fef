// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AnyPublisherTests {
    @Test func forwardsSubscriberDemandValuesAndCancel() {
        let upstream = TestPublisher<Int, TestError>()
        let erased = upstream.eraseToAnyPublisher()
        let recorder = erased.record(initialDemand: .max(2), demandPerValue: .max(1))
        #expect(
            upstream.subscriber?.combineIdentifier == recorder.combineIdentifier,
            "the wrapped publisher gets the subscriber itself")
        #expect(upstream.send(1) == .max(1))
        recorder.request(.max(3))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(3)), .cancel])
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(recorder.subscriptionDescriptions == ["TestSubscription"])
    }

    @Test func forwardsCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = AnyPublisher(upstream).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    @Test func description() {
        let erased = PassthroughSubject<Int, TestError>().eraseToAnyPublisher()
        #expect(erased.description == "AnyPublisher")
        #expect(String(describing: erased) == "AnyPublisher")
        #expect(erased.eraseToAnyPublisher().description == "AnyPublisher")
    }

    @Test func erasingTwiceDoesNotWrapTwice() {
        let upstream = TestPublisher<Int, TestError>()
        let once = upstream.eraseToAnyPublisher()
        let twice = once.eraseToAnyPublisher()
        let wrapped = AnyPublisher(once)
        #expect(!containsAnyPublisher(twice), "an AnyPublisher inside an AnyPublisher")
        #expect(!containsAnyPublisher(wrapped), "an AnyPublisher inside an AnyPublisher")
        // The probe does see an AnyPublisher when one is nested.
        #expect(containsAnyPublisher(Holder(inner: once)))
        let recorder = twice.record()
        upstream.send(4)
        #expect(recorder.values == [4])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// `AnyPublisher` is a plain box, not an operator: it adds no subscription of its own, so the
    /// subscriber meets the wrapped publisher directly, even one that misbehaves.
    @Test func addsNoStageOfItsOwn() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.eraseToAnyPublisher().eraseToAnyPublisher().record()
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(1)
        #expect(recorder.events == [.subscription, .finished, .value(1)])
        #expect(upstream.subscriptionCount == 1)
    }

    private struct Holder {
        let inner: AnyPublisher<Int, TestError>
    }

    /// Whether an `AnyPublisher` is stored anywhere inside `value`, a few levels down.
    private func containsAnyPublisher(_ value: Any, depth: Int = 4) -> Bool {
        guard depth > 0 else { return false }
        return Mirror(reflecting: value).children.contains { child in
            child.value is AnyPublisher<Int, TestError> || containsAnyPublisher(child.value, depth: depth - 1)
        }
    }
}

@Suite struct AnySubscriberTests {
    typealias Erased = AnySubscriber<Int, TestError>

    @Test func wrappingKeepsTheCombineIdentifier() {
        let first = RecordingSubscriber<Int, TestError>()
        let second = RecordingSubscriber<Int, TestError>()
        #expect(Erased(first).combineIdentifier == first.combineIdentifier)
        #expect(Erased(Erased(first)).combineIdentifier == first.combineIdentifier)
        #expect(Erased(first).combineIdentifier != Erased(second).combineIdentifier)
    }

    @Test func closureSubscribersHaveStableDistinctIdentifiers() {
        let first = Erased()
        let second = Erased()
        #expect(first.combineIdentifier == first.combineIdentifier)
        #expect(first.combineIdentifier != second.combineIdentifier)
        let copy = first
        #expect(copy.combineIdentifier == first.combineIdentifier)
    }

    /// As Combine's, a closure-based subscriber subscribed again after its first stream ended takes
    /// the second stream (a ReplaySubject's tests in a real library subscribe one twice).
    @Test func aClosureSubscriberTakesASecondStream() {
        var events: [String] = []
        let subscriber = Erased(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: {
                events.append("\($0)")
                return .none
            },
            receiveCompletion: { events.append("\($0)") })
        [1, 2].publisher.setFailureType(to: TestError.self).subscribe(subscriber)
        let subject = PassthroughSubject<Int, TestError>()
        subject.subscribe(subscriber)
        subject.send(3)
        subject.send(completion: .failure(.oops))
        Just(4).setFailureType(to: TestError.self).subscribe(subscriber)
        #expect(events == ["1", "2", "finished", "3", "failure(oops)", "4", "finished"])
    }

    @Test func wrappingForwardsEveryEvent() {
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
        let erased = Erased(recorder)
        let subscription = RecordingSubscription()
        erased.receive(subscription: subscription)
        #expect(subscription.events == [.request(.max(1))])
        #expect(erased.receive(7) == .max(2))
        erased.receive(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .value(7), .failure(.other)])
    }

    @Test func wrappedSubscriberWorksWithAPublisher() {
        let recorder = RecordingSubscriber<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        subject.subscribe(Erased(Erased(recorder)))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(recorder.subscriptionDescriptions == ["PassthroughSubject"])
    }

    @Test func closureBasedSubscriberCallsItsClosures() {
        var events: [String] = []
        let erased = Erased(
            receiveSubscription: { events.append("subscription \($0)") },
            receiveValue: {
                events.append("value \($0)"); return .max($0)
            },
            receiveCompletion: { events.append("completion \($0)") })
        erased.receive(subscription: RecordingSubscription())
        #expect(erased.receive(3) == .max(3))
        erased.receive(completion: .finished)
        #expect(events == ["subscription RecordingSubscription", "value 3", "completion finished"])
        #expect(erased.description == "Anonymous AnySubscriber")
    }

    @Test func missingClosuresIgnoreTheirEvents() {
        let subscription = RecordingSubscription()
        let erased = Erased()
        erased.receive(subscription: subscription)
        #expect(erased.receive(1) == .none, "no value closure: no more demand")
        erased.receive(completion: .failure(.oops))
        #expect(subscription.events == [], "nothing is asked or cancelled on its behalf")

        var values: [Int] = []
        let valuesOnly = Erased(receiveValue: {
            values.append($0); return .unlimited
        })
        valuesOnly.receive(subscription: subscription)
        #expect(valuesOnly.receive(5) == .unlimited)
        valuesOnly.receive(completion: .finished)
        #expect(values == [5])
        #expect(subscription.events == [])
    }

    @Test func closureBasedSubscriberWithAPublisher() {
        let subject = PassthroughSubject<Int, TestError>()
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        subject.subscribe(
            Erased(
                receiveSubscription: { $0.request(.max(2)) },
                receiveValue: {
                    values.append($0); return .none
                },
                receiveCompletion: { completions.append($0) }))
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(values == [1, 2])
        #expect(completions == [.finished])
    }

    // MARK: Wrapping a subject

    @Test func wrappingASubjectForwardsValuesAndTheFirstCompletionIntoIt() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.record()
        let erased = Erased(subject)
        #expect(erased.description == "Subject")
        let upstream = RecordingSubscription()
        erased.receive(subscription: upstream)
        #expect(upstream.events == [.request(.unlimited)], "the subject, which has demand, asks for everything")
        #expect(erased.receive(1) == .none)
        #expect(erased.receive(2) == .none)
        erased.receive(completion: .finished)
        erased.receive(completion: .failure(.oops))
        #expect(erased.receive(3) == .none)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.request(.unlimited)])
    }

    /// The wrapper does not ask upstream by itself: the subject asks when it wants values.
    @Test func wrappingAPassthroughSubjectAsksUpstreamWhenTheSubjectHasDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let erased = Erased(subject)
        let upstream = RecordingSubscription()
        erased.receive(subscription: upstream)
        #expect(upstream.events == [])
        let recorder = subject.record(initialDemand: nil)
        #expect(upstream.events == [])
        recorder.request(.max(1))
        #expect(upstream.events == [.request(.unlimited)])
    }

    @Test func wrappingACurrentValueSubjectAsksUpstreamAtOnce() {
        let subject = CurrentValueSubject<Int, TestError>(0)
        let erased = Erased(subject)
        let upstream = RecordingSubscription()
        erased.receive(subscription: upstream)
        #expect(upstream.events == [.request(.unlimited)])
        _ = erased.receive(5)
        #expect(subject.value == 5)
    }

    @Test func wrappedSubjectAsASubscriberOfAPublisher() {
        let upstream = TestPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.record()
        upstream.subscribe(Erased(subject))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func wrappedSubjectCancelsUpstreamOnlyThroughTheSubjectSubscription() {
        let subject = PassthroughSubject<Int, TestError>()
        let erased = Erased(subject)
        let upstream = RecordingSubscription()
        erased.receive(subscription: upstream)
        let recorder = subject.record()
        #expect(upstream.events == [.request(.unlimited)])
        // Cancelling the subject's own subscriber does not touch upstream.
        recorder.cancel()
        #expect(upstream.events == [.request(.unlimited)])
    }
}
