// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AmbTests {
    typealias Source = TestPublisher<Int, TestError>

    @Test func theFirstToSendAValueWinsAndTheOtherIsCancelled() {
        let first = Source()
        let second = Source()
        let recorder = first.amb(second).record()
        second.send(3)
        first.send(1)
        second.send(6)
        first.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .value(6)], "the loser's values and end are ignored")
        #expect(first.events == [.subscribe, .request(.unlimited), .cancel])
        second.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .value(6), .finished])
        #expect(second.events == [.subscribe, .request(.unlimited)], "the winner that completed is not cancelled")
        #expect(recorder.subscriptionDescriptions == ["Amb"])
    }

    @Test func aCompletionWinsTooAndEndsTheStream() {
        let first = Source()
        let second = Source()
        let recorder = first.amb(second).record()
        first.send(completion: .failure(.oops))
        second.send(1)
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(second.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func demandGoesToBothUntilOneWinsThenToTheWinnerOnly() {
        let first = Source()
        let second = Source()
        let recorder = first.amb(second).record(initialDemand: .max(2))
        #expect(first.events == [.subscribe, .request(.max(2))])
        #expect(second.events == [.subscribe, .request(.max(2))])
        recorder.request(.max(1))
        #expect(first.requested == .max(3) && second.requested == .max(3))
        first.send(1)
        recorder.request(.max(4))
        #expect(first.requested == .max(7))
        #expect(second.events == [.subscribe, .request(.max(2)), .request(.max(1)), .cancel])
    }

    @Test func withLimitedDemandTheWinnerGetsWhatWasAskedBeforeItWon() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let recorder = first.amb(second).record(initialDemand: .max(2))
        for (subject, value) in [(second, 3), (first, 1), (first, 0), (second, 0), (second, 7), (second, 11)] {
            subject.send(value)
        }
        #expect(recorder.values == [3, 0])
    }

    @Test func theFirstSynchronousPublisherWinsAtTheFirstRequest() {
        #expect(Just(1).amb(Just(2)).record().events == [.subscription, .value(1), .finished])
        let neverThenOne = Empty<Int, Never>(completeImmediately: false).append(0)
        let recorder = neverThenOne.amb(Empty(completeImmediately: true).append(1)).record()
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(
            Publishers.Amb(first: Empty<Int, Never>(), second: Empty()).record().events == [.subscription, .finished])
        let never = Empty<Int, Never>(completeImmediately: false)
        #expect(never.amb(never).record().events == [.subscription])
    }

    @Test func aCancelCancelsBothAndLaterEventsAreIgnored() {
        let first = Source()
        let second = Source()
        let recorder = first.amb(second).record()
        recorder.cancel()
        first.send(1)
        second.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        #expect(first.events.last == .cancel && second.events.last == .cancel)
    }

    @Test func manyPublishersRaceInTheVariadicAndCollectionForms() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let four = subjects[3].amb(with: subjects[1], subjects[2], subjects[0]).record()
        let three = subjects[0].amb(with: [subjects[1], subjects[2]]).record()
        let collection = subjects[..<2].amb().record()
        for (index, value) in [(3, 3), (1, 1), (1, 2), (2, 5), (0, 6), (3, 7), (1, 8)] {
            subjects[index].send(value)
        }
        #expect(four.values == [3, 7])
        #expect(three.values == [1, 2, 8])
        #expect(collection.values == [1, 2, 8])
        subjects[1].send(completion: .finished)
        #expect(three.completions.count == 1 && collection.completions.count == 1 && four.completions.isEmpty)
    }

    @Test func anEmptyCollectionFinishesAndOneIsItself() {
        #expect([PassthroughSubject<Int, Never>]().amb().record().events == [.subscription, .finished])
        let one = [Just(4)].amb().record()
        #expect(one.events == [.subscription, .value(4), .finished])
    }
}
