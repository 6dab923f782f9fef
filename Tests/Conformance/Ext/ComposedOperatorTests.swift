// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct FlatMapLatestTests {
    @Test func aNewValueCancelsThePublisherMadeForTheOneBefore() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = [TestPublisher<String, TestError>(), TestPublisher<String, TestError>()]
        let recorder = upstream.flatMapLatest { inners[$0] }.record()
        upstream.send(0)
        inners[0].send("a")
        upstream.send(1)
        inners[0].send("stale")
        inners[1].send("b")
        #expect(recorder.values == ["a", "b"])
        #expect(inners[0].events.last == .cancel)
    }
}

@Suite struct FlatMapFirstTests {
    @Test func valuesWhileAnInnerPublisherRunsAreIgnored() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = (0..<3).map { _ in PassthroughSubject<String, TestError>() }
        var made: [Int] = []
        let recorder = upstream.flatMapFirst { index in
            made.append(index)
            return inners[index]
        }.record()
        upstream.send(0)
        upstream.send(1)
        inners[0].send("a")
        inners[1].send("never")
        inners[0].send(completion: .finished)
        upstream.send(2)
        inners[2].send("c")
        #expect(made == [0, 2])
        #expect(recorder.values == ["a", "c"])
    }

    @Test func eachSubscriptionHasItsOwnFlag() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let shared = upstream.flatMapFirst { _ in inner }
        let first = shared.record()
        upstream.send(0)
        let second = shared.record()
        upstream.send(1)
        inner.send(9)
        #expect(first.values == [9])
        #expect(second.values == [9], "the second subscription's first value started its own inner publisher")
    }
}

@Suite struct PairwiseTests {
    @Test func eachValueIsPairedWithTheOneBefore() {
        let pairs = [1, 2, 3, 4].publisher.pairwise().map { "\($0)\($1)" }.record()
        #expect(pairs.values == ["12", "23", "34"])
        #expect(pairs.completions.count == 1)
    }

    @Test func demandCountsPairs() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.pairwise().map { $0 + $1 }.record(initialDemand: .max(1))
        #expect(upstream.send(1) == .max(1), "the first value makes no pair and is asked for again")
        #expect(upstream.send(2) == .none)
        #expect(recorder.values == [3])
    }
}

@Suite struct IgnoreFailureTests {
    @Test func aFailureBecomesTheEnd() {
        let upstream = PassthroughSubject<Int, TestError>()
        let recorder = upstream.ignoreFailure().record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}

@Suite struct MaterializeTests {
    @Test func eventsBecomeValuesAndTheStreamFinishes() {
        let upstream = PassthroughSubject<Int, TestError>()
        let failing = upstream.materialize().record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(failing.values == [.value(1), .failure(.oops)])
        #expect(failing.completions.count == 1)
        let finishing = [1, 2].publisher.setFailureType(to: TestError.self).materialize().record()
        #expect(finishing.values == [.value(1), .value(2), .finished])
    }

    @Test func dematerializeTurnsThemBack() {
        let events = PassthroughSubject<Event<Int, TestError>, Never>()
        let recorder = events.dematerialize().record()
        events.send(.value(1))
        events.send(.value(2))
        events.send(.failure(.oops))
        events.send(.value(3))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        let finished = [Event<Int, TestError>.value(1), .finished, .value(2)].publisher.dematerialize().record()
        #expect(finished.events == [.subscription, .value(1), .finished])
    }

    @Test func aRoundTripIsTheStreamItself() {
        let recorder = [1, 2, 3].publisher.setFailureType(to: TestError.self).materialize().dematerialize()
            .record(initialDemand: .max(2))
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
        recorder.request(.max(1))
        #expect(
            recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished],
            "the completion's event is asked for like a value, as in CombineExt")
    }
}

@Suite struct RetryAfterDelayTests {
    @Test func eachAttemptComesTheIntervalAfterTheFailureBefore() {
        let scheduler = VirtualTimeScheduler()
        var attempts: [Int] = []
        let recorder = Deferred {
            attempts.append(scheduler.now.nanoseconds)
            return Fail<Int, TestError>(error: .oops)
        }
        .retry(2, delay: .seconds(1), scheduler: scheduler)
        .record()
        #expect(attempts == [0])
        scheduler.advance(by: .milliseconds(999))
        #expect(attempts == [0])
        scheduler.advance(by: .milliseconds(1))
        #expect(attempts == [0, 1_000_000_000])
        scheduler.advance(by: .seconds(1))
        #expect(attempts == [0, 1_000_000_000, 2_000_000_000])
        #expect(recorder.completions.isEmpty, "the last failure is held back too")
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func aSuccessAfterARetryEndsTheAttempts() {
        let scheduler = VirtualTimeScheduler()
        var attempt = 0
        let recorder = Deferred {
            attempt += 1
            return attempt < 2
                ? Fail(error: TestError.oops).eraseToAnyPublisher()
                : Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(5, delay: .seconds(1), scheduler: scheduler)
        .record()
        scheduler.run()
        #expect(attempt == 2)
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }
}

@Suite struct RetryWhenTests {
    /// Attempt `n` (from 1) publishes `n`, then fails, or finishes from attempt `succeedingAt` on.
    final class Attempts {
        var count = 0
        let succeedingAt: Int
        init(succeedingAt: Int = .max) { self.succeedingAt = succeedingAt }
        var publisher: AnyPublisher<Int, TestError> {
            Deferred { [self] in
                count += 1
                return count >= succeedingAt
                    ? Just(count).setFailureType(to: TestError.self).eraseToAnyPublisher()
                    : Just(count).setFailureType(to: TestError.self).append(Fail(error: .oops)).eraseToAnyPublisher()
            }.eraseToAnyPublisher()
        }
    }

    @Test func eachValueOfTheTriggerSubscribesAgainAndItsEndEndsTheStream() {
        let attempts = Attempts()
        let recorder = attempts.publisher.retryWhen { failures in failures.prefix(2) }.record()
        #expect(attempts.count == 3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func theTriggerSeesEachFailureOnce() {
        let attempts = Attempts(succeedingAt: 3)
        var seen: [TestError] = []
        let recorder = attempts.publisher.retryWhen { failures in
            failures.handleEvents(receiveOutput: { seen.append($0) })
        }
        .record()
        #expect(seen == [.oops, .oops])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func theTriggersFailureEndsTheStream() {
        let attempts = Attempts()
        let recorder = attempts.publisher.retryWhen { failures in
            failures.flatMap { _ in Fail<Void, TestError>(error: .other) }
        }.record()
        #expect(attempts.count == 1)
        #expect(recorder.events == [.subscription, .value(1), .failure(.other)])
    }

    @Test func upstreamsEndCancelsTheTrigger() {
        let attempts = Attempts(succeedingAt: 2)
        var triggerCancelled = false
        let recorder = attempts.publisher.retryWhen { failures in
            failures.handleEvents(receiveCancel: { triggerCancelled = true })
        }.record()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(triggerCancelled)
    }

    @Test func aCancelCancelsTheAttemptAndTheTrigger() {
        let upstream = TestPublisher<Int, TestError>()
        var triggerCancelled = false
        let recorder = upstream.retryWhen { failures in
            failures.handleEvents(receiveCancel: { triggerCancelled = true })
        }
        .record()
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(triggerCancelled)
    }

    @Test func theTriggerIsLetGoAtTheEndAndAtACancel() {
        final class Token {}
        weak var token: Token?
        func retrying(_ upstream: some Publisher<Int, TestError>) -> RecordingSubscriber<Int, TestError> {
            upstream.retryWhen { failures in
                let held = Token()
                token = held
                return failures.map { _ in withExtendedLifetime(held) {} }
            }.record()
        }
        let cancelled = retrying(PassthroughSubject<Int, TestError>())
        #expect(token != nil, "the trigger's subscription holds it")
        cancelled.cancel()
        #expect(token == nil, "a cancel lets the trigger go")
        let finished = retrying(Just(1).setFailureType(to: TestError.self))
        #expect(finished.events == [.subscription, .value(1), .finished])
        #expect(token == nil, "upstream's end lets the trigger go")
    }

    @Test func demandCarriesOverFromOneAttemptToTheNext() {
        let attempts = Attempts(succeedingAt: 3)
        let recorder = attempts.publisher.retryWhen { $0 }.record(initialDemand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(attempts.count == 3, "a failure needs no demand: the third attempt is waiting for it")
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func aDelayedTriggerSpacesTheAttemptsOnVirtualTime() {
        let scheduler = VirtualTimeScheduler()
        var times: [Int] = []
        let recorder = Deferred {
            times.append(scheduler.now.nanoseconds)
            return Fail<Int, TestError>(error: .oops)
        }
        .retryWhen { failures in failures.prefix(2).delay(for: .seconds(1), scheduler: scheduler) }
        .record()
        scheduler.run()
        #expect(times == [0, 1_000_000_000, 2_000_000_000])
        #expect(recorder.events == [.subscription, .finished], "the trigger ended, so the last failure ends nothing")
    }

    @Test func eachSubscriptionHasItsOwnTrigger() {
        var handlerCalls = 0
        let publisher = Fail<Int, TestError>(error: .oops).retryWhen { failures in
            handlerCalls += 1
            return failures.prefix(1)
        }
        let first = publisher.record()
        let second = publisher.record()
        #expect(handlerCalls == 2)
        #expect(first.events == [.subscription, .finished])
        #expect(second.events == [.subscription, .finished])
    }
}

@Suite struct AssignOwnershipTests {
    final class Model {
        var value = 0
    }

    @Test func weakOwnershipLetsTheObjectGo() {
        let subject = PassthroughSubject<Int, Never>()
        weak var released: Model?
        var cancellable: AnyCancellable?
        do {
            let model = Model()
            released = model
            cancellable = subject.assign(to: \.value, on: model, ownership: .weak)
            subject.send(3)
            #expect(model.value == 3)
        }
        #expect(released == nil)
        subject.send(4)
        withExtendedLifetime(cancellable) {}
    }

    @Test func strongAndUnownedOwnershipAssign() {
        let subject = PassthroughSubject<Int, Never>()
        weak var held: Model?
        var cancellables: [AnyCancellable] = []
        let unownedModel = Model()
        do {
            let model = Model()
            held = model
            cancellables.append(subject.assign(to: \.value, on: model, ownership: .strong))
        }
        cancellables.append(subject.assign(to: \.value, on: unownedModel, ownership: .unowned))
        subject.send(5)
        #expect(held?.value == 5, "a strong assign keeps its object")
        #expect(unownedModel.value == 5)
        cancellables.removeAll()
        #expect(held == nil)
    }
}
