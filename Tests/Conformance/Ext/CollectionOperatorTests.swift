// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ZipManyTests {
    typealias Subject = PassthroughSubject<Int, TestError>

    @Test func theNthValuesOfAllArePublishedTogetherInOrder() {
        let subjects = (0..<3).map { _ in Subject() }
        let recorder = subjects[0].zip(with: subjects[1], subjects[2]).record()
        subjects[0].send(1)
        subjects[0].send(1)
        subjects[1].send(2)
        subjects[2].send(3)
        #expect(recorder.values == [[1, 2, 3]])
        subjects[0].send(completion: .finished)
        #expect(recorder.completions.isEmpty, "the first still holds a value that has no partners yet")
        subjects[1].send(2)
        subjects[2].send(3)
        #expect(recorder.values == [[1, 2, 3], [1, 2, 3]])
        #expect(recorder.completions.count == 1, "now the finished one has nothing left")
    }

    @Test func aFailureEndsTheZip() {
        let subjects = (0..<3).map { _ in Subject() }
        let recorder = subjects.zip().record()
        subjects[1].send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func noPublishersFinishAtOnceAndOneMakesOneValueArrays() {
        #expect([Subject]().zip().record().events == [.subscription, .finished])
        #expect([Just(1)].zip().record().events == [.subscription, .value([1]), .finished])
    }

    @Test func manyPublishersNestWithoutDeepRecursion() {
        let count = 10_001
        let recorder = Array(repeating: Just(2), count: count).zip().record()
        #expect(recorder.values.count == 1)
        #expect(recorder.values.first == Array(repeating: 2, count: count))
        #expect(recorder.completions.count == 1)
    }

    @Test func demandCountsArrays() {
        let recorder = [
            [1, 2, 3].publisher, [4, 5, 6].publisher, [7, 8, 9].publisher, [0, 0, 0].publisher, [1, 1, 1].publisher,
        ]
        .zip().record(initialDemand: .max(1))
        #expect(recorder.values == [[1, 4, 7, 0, 1]])
        recorder.request(.max(2))
        #expect(recorder.values == [[1, 4, 7, 0, 1], [2, 5, 8, 0, 1], [3, 6, 9, 0, 1]])
    }
}

@Suite struct CombineLatestManyTests {
    typealias Subject = PassthroughSubject<Int, TestError>

    @Test func onceAllHavePublishedEachValuePublishesAllTheLatest() {
        let subjects = (0..<4).map { _ in Subject() }
        let recorder = subjects.combineLatest().record()
        subjects[0].send(1)
        subjects[1].send(2)
        subjects[2].send(3)
        #expect(recorder.values.isEmpty)
        subjects[3].send(4)
        subjects[0].send(5)
        subjects[3].send(6)
        #expect(recorder.values == [[1, 2, 3, 4], [5, 2, 3, 4], [5, 2, 3, 6]])
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        #expect(recorder.completions.isEmpty)
        subjects[3].send(completion: .finished)
        #expect(recorder.completions.count == 1, "it finishes when all have")
    }

    @Test func theWithFormsPutThisPublisherFirst() {
        let subjects = (0..<5).map { _ in Subject() }
        let variadic = subjects[0].combineLatest(with: subjects[1], subjects[2], subjects[3], subjects[4]).record()
        let collection = subjects[1].combineLatest(with: [subjects[0]]).record()
        for (index, subject) in subjects.enumerated() { subject.send(index + 1) }
        subjects[1].send(6)
        #expect(variadic.values == [[1, 2, 3, 4, 5], [1, 6, 3, 4, 5]])
        #expect(collection.values == [[2, 1], [6, 1]])
    }

    @Test func aFailureEndsTheStream() {
        let subjects = (0..<2).map { _ in Subject() }
        let recorder = subjects.combineLatest().record()
        subjects[0].send(1)
        subjects[1].send(2)
        subjects[1].send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value([1, 2]), .failure(.oops)])
    }

    @Test func noPublishersFinishAtOnceAndManyNestWithoutDeepRecursion() {
        #expect([Subject]().combineLatest().record().events == [.subscription, .finished])
        let recorder = Array(repeating: Just(2), count: 10_001).combineLatest().record()
        #expect(recorder.values == [Array(repeating: 2, count: 10_001)])
        #expect(recorder.completions.count == 1)
    }
}

@Suite struct MergeManyTests {
    @Test func valuesComeAsTheyArriveAndTheStreamFinishesWhenAllHave() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, TestError>() }
        let recorder = subjects.merge().record()
        subjects[2].send(3)
        subjects[0].send(1)
        subjects[1].send(2)
        subjects[0].send(completion: .finished)
        subjects[1].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .value(1), .value(2)])
        subjects[2].send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(3), .value(1), .value(2), .failure(.oops)])
    }

    @Test func noPublishersFinishAtOnce() {
        #expect([Just<Int>]().merge().record().events == [.subscription, .finished])
    }
}

@Suite struct FlatMapBatchesTests {
    @Test func batchesAreZippedOneAfterTheOther() {
        let even = (1...6).map(Just.init).flatMapBatches(of: 2).record()
        #expect(even.events == [.subscription, .value([1, 2]), .value([3, 4]), .value([5, 6]), .finished])
        let uneven = (1...5).map(Just.init).flatMapBatches(of: 2).record()
        #expect(uneven.values == [[1, 2], [3, 4], [5]])
        #expect([Just(1)].flatMapBatches(of: 3).record().values == [[1]])
        #expect([Just<Int>]().flatMapBatches(of: 2).record().events == [.subscription, .finished])
    }

    @Test func theNextBatchWaitsForTheOneBeforeToFinish() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let later = [Just(3), Just(4)].map { $0.setFailureType(to: TestError.self).eraseToAnyPublisher() }
        let recorder = ([first.eraseToAnyPublisher(), second.eraseToAnyPublisher()] + later).flatMapBatches(of: 2)
            .record()
        first.send(1)
        second.send(2)
        #expect(recorder.values == [[1, 2]])
        first.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2]), .value([3, 4]), .finished])
    }

    @Test func aFailureEndsTheStream() {
        let publishers = [
            Fail<Int, TestError>(error: .oops).eraseToAnyPublisher(),
            Just(1).setFailureType(to: TestError.self).eraseToAnyPublisher(),
        ]
        #expect(publishers.flatMapBatches(of: 2).record().events == [.subscription, .failure(.oops)])
    }
}
