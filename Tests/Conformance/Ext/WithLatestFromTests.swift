// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct WithLatestFromTests {
    typealias Source = TestPublisher<Int, TestError>

    @Test func eachValueTakesTheLatestOfTheOther() {
        let upstream = Source()
        let other = PassthroughSubject<String, TestError>()
        let recorder = upstream.withLatestFrom(other).record()
        other.send("a")
        upstream.send(1)
        other.send("b")
        other.send("c")
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value("a"), .value("c"), .value("c")])
        #expect(recorder.subscriptionDescriptions == ["WithLatestFrom"])
    }

    @Test func upstreamIsSubscribedAtTheOthersFirstValueSoAColdOneLosesNothing() {
        let other = PassthroughSubject<Int, TestError>()
        let recorder = [1, 2].publisher.setFailureType(to: TestError.self)
            .withLatestFrom(other) { $0 * 10 + $1 }.record()
        #expect(recorder.events == [.subscription])
        other.send(5)
        #expect(recorder.events == [.subscription, .value(15), .value(25), .finished])
    }

    @Test func theOtherIsSubscribedFirstAndAskedForEverythingAndUpstreamGetsTheDemandMadeMeanwhile() {
        let upstream = Source()
        let other = Source()
        var order: [String] = []
        let recorder = upstream.handleEvents(receiveSubscription: { _ in order.append("upstream") })
            .withLatestFrom(other.handleEvents(receiveSubscription: { _ in order.append("other") }))
            .record(initialDemand: .max(3))
        #expect(order == ["other"])
        #expect(other.events == [.subscribe, .request(.unlimited)])
        #expect(upstream.events == [])
        other.send(1)
        #expect(order == ["other", "upstream"])
        #expect(upstream.events == [.subscribe, .request(.max(3))])
        other.send(2)
        recorder.request(.max(2))
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(2))], "subscribed once")
    }

    @Test func aCancelBeforeTheOthersFirstValueNeverSubscribesUpstream() {
        let upstream = Source()
        let other = Source()
        let recorder = upstream.withLatestFrom(other).record()
        recorder.cancel()
        other.send(1)
        #expect(upstream.events == [])
        #expect(other.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(recorder.events == [.subscription])
    }

    @Test func upstreamsCompletionEndsTheStreamAndCancelsTheOther() {
        let upstream = Source()
        let other = Source()
        let recorder = upstream.withLatestFrom(other).record()
        other.send(1)
        upstream.send(0)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(other.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "the publisher that completed is not cancelled")
    }

    @Test func theOthersFailureEndsTheStreamAndCancelsUpstream() {
        let upstream = Source()
        let other = Source()
        let recorder = upstream.withLatestFrom(other).record()
        other.send(1)
        other.send(completion: .failure(.oops))
        upstream.send(2)
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func whenTheOtherFinishesItsLastValueStaysTheLatest() {
        let upstream = Source()
        let other = Source()
        let recorder = upstream.withLatestFrom(other).record()
        other.send(7)
        other.send(completion: .finished)
        upstream.send(0)
        upstream.send(0)
        #expect(recorder.values == [7, 7])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func aCancelCancelsBothAndLetsGoOfTheClosure() {
        final class Token {}
        let upstream = Source()
        let other = Source()
        weak var weakToken: Token?
        let recorder: RecordingSubscriber<Int, TestError>
        do {
            let token = Token()
            weakToken = token
            recorder = upstream.withLatestFrom(other) { value, _ in withExtendedLifetime(token) { value } }.record()
        }
        #expect(weakToken != nil)
        other.send(0)
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(other.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(weakToken == nil)
        other.send(1)
        upstream.send(1)
        #expect(recorder.events == [.subscription])
    }

    @Test func aCancelInsideAValueSentFromInsideReceiveEndsTheStreamOnceTheOuterDeliveryReturns() {
        final class Token {}
        final class Box {
            var cancellable: AnyCancellable?
            var received: [Int] = []
        }
        let upstream = PassthroughSubject<Int, Never>()
        let other = CurrentValueSubject<Int, Never>(0)
        let box = Box()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            box.cancellable = upstream.withLatestFrom(other) { value, _ in withExtendedLifetime(token) { value } }
                .sink { [unowned box] value in
                    box.received.append(value)
                    if value == 1 {
                        upstream.send(2)  // delivered inside this delivery
                        box.received.append(-1)  // the outer delivery goes on after the nested one
                    } else {
                        box.cancellable?.cancel()
                    }
                }
        }
        upstream.send(1)
        #expect(box.received == [1, 2, -1])
        #expect(weakToken == nil, "let go of once the outer delivery returned")
        upstream.send(3)
        #expect(box.received == [1, 2, -1])
    }

    @Test func twoAndThreeOthersArriveAsATupleOnceAllHavePublished() {
        let upstream = PassthroughSubject<Int, TestError>()
        let first = PassthroughSubject<String, TestError>()
        let second = PassthroughSubject<Bool, TestError>()
        let third = PassthroughSubject<Double, TestError>()
        let pairs = upstream.withLatestFrom(first, second).map { "\($0.0)\($0.1)" }.record()
        let triples = upstream.withLatestFrom(first, second, third) { "\($0)\($1.0)\($1.1)\($1.2)" }.record()
        first.send("a")
        upstream.send(1)
        second.send(true)
        upstream.send(2)
        third.send(0.5)
        upstream.send(3)
        #expect(pairs.values == ["atrue", "atrue"])
        #expect(triples.values == ["3atrue0.5"])
    }

    @Test func aFailureRacingAValueEndsTheStreamOnce() {
        for _ in 0..<200 {
            nonisolated(unsafe) let upstream = PassthroughSubject<Int, TestError>()
            nonisolated(unsafe) let other = PassthroughSubject<Int, TestError>()
            let recorder = RecordingSubscriber<Int, TestError>()
            upstream.withLatestFrom(other).subscribe(recorder)
            other.send(1)
            let failing = onAnotherThread { other.send(completion: .failure(.oops)) }
            for value in 0..<50 { upstream.send(value) }
            failing.wait()
            // The recorder is read only after both threads are done with it.
            #expect(recorder.completions.count == 1)
            #expect(recorder.events.last == .failure(.oops), "nothing after the completion")
        }
    }
}
