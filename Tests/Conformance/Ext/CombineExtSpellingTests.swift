// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// CombineExt 1.9's public API, spelled as CombineExt spells it, with the types its declarations
/// return written out: a program written against CombineExt compiles against SluiceExt. The two
/// places where SluiceExt returns another type on purpose (`flatMapFirst` and
/// `removeAllDuplicates`, whose state is per subscription) are in "Coming from CombineExt".
@Suite struct CombineExtSpellingTests {
    typealias Subject = PassthroughSubject<Int, TestError>

    final class Target {
        var value = 0
    }

    @Test func operatorsReturnCombineExtsTypes() {
        let subject = Subject()
        let others = [Subject(), Subject()]
        let bools = PassthroughSubject<Bool, TestError>()
        let arrays = PassthroughSubject<[Int], TestError>()
        let scheduler = VirtualTimeScheduler()
        let amb: Publishers.Amb<Subject, Subject> = subject.amb(others[0])
        let ambs: [AnyPublisher<Int, TestError>] = [
            subject.amb(with: others[0], others[1]), subject.amb(with: others), others.amb(),
        ]
        let zips: [AnyPublisher<[Int], TestError>] = [
            subject.zip(with: others), subject.zip(with: others[0], others[1]), others.zip(),
            subject.combineLatest(with: others), subject.combineLatest(with: others[0], others[1]),
            others.combineLatest(), others.flatMapBatches(of: 2),
        ]
        let merged: AnyPublisher<Int, TestError> = others.merge()
        let materialized: Publishers.Materialize<Subject> = subject.materialize()
        let values: AnyPublisher<Int, Never> = materialized.values()
        let failures: AnyPublisher<TestError, Never> = materialized.failures()
        let dematerialized: Publishers.Dematerialize<Publishers.Materialize<Subject>> = materialized.dematerialize()
        let enumerated: Publishers.Enumerated<Subject> = subject.enumerated(initial: 1)
        let mapped: Publishers.Map<PassthroughSubject<[Int], TestError>, [String]> = arrays.mapMany(String.init)
        let filtered: AnyPublisher<[Int], TestError> = arrays.filterMany { $0 > 0 }
        let results: AnyPublisher<Result<Int, TestError>, Never> = subject.mapToResult()
        let constant: Publishers.Map<Subject, String> = subject.mapToValue("x")
        let voids: Publishers.Map<Subject, Void> = subject.mapToVoid()
        let retyped: Publishers.Map<Publishers.IgnoreOutput<Subject>, String> = subject.ignoreOutput(
            setOutputType: String.self)
        let outputs: Publishers.Map<Empty<Never, TestError>, Int> = Empty().setOutputType(to: Int.self)
        let toggled: Publishers.Map<PassthroughSubject<Bool, TestError>, Bool> = bools.toggle()
        let windows: AnyPublisher<[Int], TestError> = subject.nwise(3)
        let pairs: AnyPublisher<(Int, Int), TestError> = subject.pairwise()
        let (matches, nonMatches): (matches: Subject.Partition, nonMatches: Subject.Partition) = subject.partition {
            $0 > 0
        }
        let timed: AnyPublisher<Int, TestError> = subject.prefix(duration: .seconds(1), on: scheduler)
        let inclusive: AnyPublisher<Int, TestError> = subject.prefix(while: { $0 > 0 }, behavior: .inclusive)
        let ignored: AnyPublisher<Int, Never> = subject.ignoreFailure(completeImmediately: false)
        let ignoredRetyped: AnyPublisher<Int, Never> = subject.ignoreFailure(setFailureType: Never.self)
        let retried:
            Publishers.RetryWhen<Subject, Publishers.Map<AnyPublisher<TestError, Never>, Void>, Int, TestError> =
                subject.retryWhen { $0.mapToVoid() }
        let shared: Publishers.Autoconnect<Publishers.Multicast<Subject, ReplaySubject<Int, TestError>>> =
            subject.share(
                replay: 1)
        let latest: Publishers.SwitchToLatest<Subject, Publishers.Map<Subject, Subject>> = subject.flatMapLatest { _ in
            others[0]
        }
        let latestFrom: Publishers.WithLatestFrom<Subject, Subject, Int> = subject.withLatestFrom(others[0])
        let latestFromTwo: Publishers.WithLatestFrom<Subject, AnyPublisher<(Int, Int), TestError>, (Int, Int)> =
            subject
            .withLatestFrom(others[0], others[1])
        let selector: Publishers.WithLatestFrom<Subject, Subject, Int>.ResultSelector = { $0 + $1 }
        let created: AnyPublisher<Int, TestError> = AnyPublisher.create { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        let handler: Publishers.Create<Int, TestError>.SubscriberHandler = { _ in AnyCancellable {} }
        let events: [Event<Int, TestError>] = [.value(1), .failure(.oops), .finished]
        let behaviours: [PrefixWhileBehavior] = [.inclusive, .exclusive]
        let ownerships: [ObjectOwnership] = [.strong, .weak, .unowned]
        withExtendedLifetime(
            (
                amb, ambs, zips, merged, values, failures, dematerialized, enumerated, mapped, filtered, results,
                constant,
                voids, retyped, outputs, toggled, windows, pairs, matches, nonMatches, timed, inclusive, ignored,
                ignoredRetyped, retried, shared, latest, latestFrom, latestFromTwo, handler, behaviours, ownerships
            )
        ) {}
        #expect(selector(1, 2) == 3)
        #expect(events.map(\.description) == ["value(1)", "failure(oops)", "finished"])
        #expect(created.record().events == [.subscription, .value(1), .finished])
    }

    @Test func relaysAndAssignTakeCombineExtsCalls() {
        let passthrough = PassthroughRelay<Int>()
        let current = CurrentValueRelay(0)
        let signals = PassthroughRelay<Void>()
        var cancellables = Set<AnyCancellable>()
        current.subscribe(passthrough).store(in: &cancellables)
        Just(1).subscribe(current).store(in: &cancellables)
        passthrough.subscribe([2].publisher).store(in: &cancellables)
        signals.accept()
        let first = Target(), second = Target(), third = Target()
        current.assign(to: \.value, on: first, ownership: .weak).store(in: &cancellables)
        current.assign(to: \.value, on: first, and: \.value, on: second).store(in: &cancellables)
        current.assign(to: \.value, on: first, and: \.value, on: second, and: \.value, on: third, ownership: .unowned)
            .store(in: &cancellables)
        current.accept(3)
        #expect([first.value, second.value, third.value] == [3, 3, 3])
        #expect(current.value == 3)
        let relays: [any Relay<Int>] = [passthrough, current]
        #expect(relays.count == 2)
    }
}
