// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct NwiseTests {
    @Test func eachWindowSlidesByOneValue() {
        let recorder = (1...6).publisher.nwise(3).record()
        #expect(
            recorder.events == [
                .subscription, .value([1, 2, 3]), .value([2, 3, 4]), .value([3, 4, 5]), .value([4, 5, 6]), .finished,
            ])
        #expect([1, 2, 3].publisher.nwise(4).record().events == [.subscription, .finished])
        #expect([1, 2].publisher.nwise(1).record().values == [[1], [2]])
    }

    @Test func pairwiseMakesPairsAndDemandCountsThem() {
        let pairs = (1...4).publisher.pairwise().map { "\($0)\($1)" }.record()
        #expect(pairs.values == ["12", "23", "34"])
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.pairwise().map { $0 + $1 }.record(initialDemand: .max(1))
        #expect(upstream.send(1) == .max(1), "the first value makes no pair and is asked for again")
        #expect(upstream.send(2) == .none)
        #expect(recorder.values == [3])
    }
}

@Suite struct PartitionTests {
    @Test func matchesAndTheRestGoToTheirOwnSideFromOneSubscription() {
        let source = PassthroughRelay<Int>()
        var calls = 0
        let (even, odd) = source.partition { value in
            calls += 1
            return value.isMultiple(of: 2)
        }
        let evens = even.record()
        let odds = odd.record()
        for value in 0...6 { source.accept(value) }
        #expect(evens.values == [0, 2, 4, 6])
        #expect(odds.values == [1, 3, 5])
        #expect(calls == 7, "the predicate runs once per value")
    }
}

@Suite struct PrefixDurationTests {
    @Test func valuesPassForTheDurationThenTheStreamFinishes() {
        let scheduler = VirtualTimeScheduler()
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(duration: .milliseconds(800), on: scheduler).record()
        upstream.send(1)
        scheduler.advance(by: .milliseconds(400))
        upstream.send(2)
        scheduler.advance(by: .milliseconds(400))
        upstream.send(3)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func aCompletionWithinTheWindowEndsTheStream() {
        let scheduler = VirtualTimeScheduler()
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = upstream.prefix(duration: .seconds(1), on: scheduler).record()
        scheduler.advance(by: .milliseconds(250))
        upstream.send(completion: .failure(.oops))
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }
}

@Suite struct PrefixWhileBehaviorTests {
    let isEven: (Int) -> Bool = { $0.isMultiple(of: 2) }

    @Test func exclusiveIsPrefixWhile() {
        #expect([0, 2, 4, 5, 6].publisher.prefix(while: isEven, behavior: .exclusive).record().values == [0, 2, 4])
    }

    @Test func inclusivePublishesTheValueThatEndsThePrefix() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = upstream.prefix(while: isEven, behavior: .inclusive).record()
        for value in [0, 2, 4, 5] { upstream.send(value) }
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(0), .value(2), .value(4), .value(5), .finished])
    }

    @Test func inclusivePassesOnAnEndBeforeAValueFailsThePredicate() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = upstream.prefix(while: isEven, behavior: .inclusive).record()
        for value in [0, 2] { upstream.send(value) }
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(0), .value(2), .failure(.oops)])
        #expect(
            [0, 2].publisher.prefix(while: isEven, behavior: .inclusive).record().events
                == [.subscription, .value(0), .value(2), .finished])
    }

    @Test func inclusiveKeepsToDemandAndCancelsUpstreamAtTheEnd() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(while: isEven, behavior: .inclusive).record(initialDemand: .max(1))
        _ = upstream.send(2)
        _ = upstream.send(3)
        #expect(recorder.values == [2], "the rejected value waits for demand")
        #expect(upstream.events == [.subscribe, .request(.max(1)), .cancel])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(2), .value(3), .finished])
    }
}

@Suite struct RemoveAllDuplicatesTests {
    struct Unhashable: Equatable { var value: Int }

    @Test func everyValueSeenBeforeIsRemoved() {
        #expect([1, 1, 2, 1, 3, 3, 4].publisher.removeAllDuplicates().record().values == [1, 2, 3, 4])
        let unhashables = [1, 1, 2, 1, 3].map(Unhashable.init).publisher.removeAllDuplicates().record()
        #expect(unhashables.values.map(\.value) == [1, 2, 3])
        let multiples = [2, 3, 3, 4, 9, 5].publisher.removeAllDuplicates { seen, new in new.isMultiple(of: seen) }
        #expect(multiples.record().values == [2, 3, 5])
    }

    @Test func eachSubscriptionRemembersItsOwnValues() {
        let subject = PassthroughSubject<Int, TestError>()
        let unique = subject.removeAllDuplicates()
        let early = unique.record()
        subject.send(1)
        let late = unique.record()
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(early.events == [.subscription, .value(1), .failure(.oops)])
        #expect(late.events == [.subscription, .value(1), .failure(.oops)])
    }
}

@Suite struct EnumeratedTests {
    @Test func eachValueComesWithItsIndexFromTheInitialOne() {
        let upstream = PassthroughSubject<String, TestError>()
        let enumerated = upstream.enumerated(initial: 10)
        let first = enumerated.map { "\($0.index)\($0.element)" }.record()
        upstream.send("a")
        let second = enumerated.map { "\($0.index)\($0.element)" }.record()
        upstream.send("b")
        upstream.send(completion: .failure(.oops))
        #expect(first.events == [.subscription, .value("10a"), .value("11b"), .failure(.oops)])
        #expect(second.values == ["10b"], "each subscription counts from the initial index")
        #expect(["x"].publisher.enumerated().record().values.map(\.index) == [0])
    }
}

@Suite struct MappingConvenienceTests {
    @Test func manyMapsAndFiltersTheElementsOfEachCollection() {
        #expect([[1, 2], []].publisher.mapMany { $0 * 10 }.record().values == [[10, 20], []])
        #expect([[10, 3, 4], [5]].publisher.filterMany { $0.isMultiple(of: 2) }.record().values == [[10, 4], []])
    }

    @Test func valuesAreReplaced() {
        let subject = PassthroughSubject<Int, TestError>()
        let constant = subject.mapToValue("x").record()
        let voids = subject.mapToVoid().map { "()" }.record()
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(constant.events == [.subscription, .value("x"), .failure(.oops)])
        #expect(voids.values == ["()"])
        #expect([true, false].publisher.toggle().record().values == [false, true])
    }

    @Test func aResultPublisherEndsWithTheFailureAsAValue() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.mapToResult().record()
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(.success(1)), .value(.failure(.oops)), .finished])
    }

    @Test func theOutputTypeOfAPublisherWithoutValuesIsSet() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = subject.ignoreOutput(setOutputType: String.self).record()
        let direct = Empty<Never, TestError>().setOutputType(to: Int.self).record()
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(direct.events == [.subscription, .finished])
    }

    @Test func ignoringAFailureFinishesOrNeverEnds() {
        let subject = PassthroughSubject<Int, TestError>()
        let finishing = subject.ignoreFailure().record()
        let endless = subject.ignoreFailure(completeImmediately: false).record()
        let retyped = subject.ignoreFailure(setFailureType: Never.self, completeImmediately: true).record()
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(finishing.events == [.subscription, .value(1), .finished])
        #expect(endless.events == [.subscription, .value(1)])
        #expect(retyped.events == [.subscription, .value(1), .finished])
    }
}

@Suite struct MaterializedEventTests {
    @Test func valuesAndFailuresPickTheirEvents() {
        let subject = PassthroughSubject<Int, TestError>()
        let values = subject.materialize().values().record()
        let failures = subject.materialize().failures().record()
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.oops))
        #expect(values.events == [.subscription, .value(1), .value(2), .finished])
        #expect(failures.events == [.subscription, .value(.oops), .finished])
        #expect(Event<Int, TestError>.value(1).description == "value(1)")
        #expect(Event<Int, TestError>.finished.event == .finished)
    }

    @Test func dematerializeAsksForEachEventAsDemandAllows() {
        let events = TestPublisher<Event<Int, TestError>, Never>()
        let recorder = events.dematerialize().record(initialDemand: .max(2))
        #expect(events.events == [.subscribe, .request(.max(2))])
        _ = events.send(.value(1))
        _ = events.send(.value(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        _ = events.send(.failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        #expect(events.events == [.subscribe, .request(.max(2)), .request(.max(1)), .cancel])
    }
}

@Suite struct RetryWhenCombineExtTests {
    @Test func aTriggerFailureOfTheUpstreamsTypeEndsTheStreamWithIt() {
        let recorder = Fail<Int, TestError>(error: .oops)
            .retryWhen { failures in failures.tryMap { _ -> Void in throw TestError.other } }
            .record()
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    @Test func aTriggerThatFinishesEndsTheStream() {
        var attempts = 0
        let recorder = Deferred {
            attempts += 1
            return attempts == 1
                ? Fail<Int, TestError>(error: .oops).eraseToAnyPublisher()
                : Just(5).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retryWhen { failures in failures.mapToVoid() }
        .record()
        #expect(attempts == 2, "upstream is subscribed once, then once per trigger value")
        #expect(recorder.events == [.subscription, .value(5), .finished])
        #expect(Fail<Int, TestError>(error: .oops).retryWhen { $0.prefix(1) }.record().events.count == 2)
    }
}

@Suite struct AssignToManyTests {
    final class Model {
        var value = 0
    }

    @Test func eachValueIsAssignedToEveryTarget() {
        let subject = PassthroughSubject<Int, Never>()
        let first = Model(), second = Model(), third = Model()
        let cancellable = subject.assign(to: \.value, on: first, and: \.value, on: second, and: \.value, on: third)
        subject.send(4)
        #expect([first.value, second.value, third.value] == [4, 4, 4])
        withExtendedLifetime(cancellable) {}
    }

    @Test func weakTargetsAreLetGo() {
        let subject = PassthroughSubject<Int, Never>()
        let kept = Model()
        weak var released: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            released = model
            cancellable = subject.assign(to: \.value, on: kept, and: \.value, on: model, ownership: .weak)
            subject.send(1)
            #expect(model.value == 1)
        }
        #expect(released == nil)
        subject.send(2)
        #expect(kept.value == 2)
        withExtendedLifetime(cancellable) {}
    }
}
