// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ReduceTests {
    @Test func accumulatesInOrderAndPublishesAtFinish() {
        let recorder = [1, 2, 3].publisher.reduce("") { $0 + "\($1)" }.record()
        #expect(recorder.events == [.subscription, .value("123"), .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 2, 3, 4, 5], result: 120, emptyResult: 1) { $0.reduce(1, *) }
    }

    @Test func eachSubscriptionStartsFromTheInitialValue() {
        let sum = [1, 2, 3].publisher.reduce(10, +)
        #expect(sum.record().values == [16])
        #expect(sum.record().values == [16])
    }

    @Test func publicShape() {
        let reduce = Publishers.Reduce(upstream: Just(2), initial: 3) { $0 * $1 }
        #expect(reduce.initial == 3)
        #expect(reduce.nextPartialResult(4, 5) == 20)
        #expect(reduce.record().subscriptionDescriptions == ["Reduce"])
        #expect(reduce.record().values == [6])
    }
}

@Suite struct TryReduceTests {
    @Test func accumulatesLikeReduce() {
        let recorder = [1, 2, 3].publisher.tryReduce(0, +).record()
        #expect(recorder.trace == ["subscription", "value(6)", "finished"])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 2, 3, 4, 5], result: 120, emptyResult: 1) { $0.tryReduce(1, *) }
    }

    @Test func throwCancelsUpstreamAndFailsWithoutDemand() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.tryReduce(0) { total, value in
            calls += 1
            if value == 3 { throw TestError.other }
            return total + value
        }.record(initialDemand: nil)
        for value in 1...5 { #expect(upstream.send(value) == .none) }
        #expect(recorder.trace == ["subscription", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(calls == 3, "nothing is folded after the throw")
        recorder.request(.max(1))
        #expect(recorder.trace == ["subscription", "failure(other)"])
    }

    @Test func upstreamFailureBecomesAnyError() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryReduce(0, +).record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.completions.count == 1)
        if case .failure(let error) = recorder.completions.first {
            #expect(error as? TestError == .oops)
        }
    }

    @Test func publicShape() throws {
        let reduce = Publishers.TryReduce(upstream: Just(2), initial: 3) { $0 + $1 }
        #expect(reduce.initial == 3)
        #expect(try reduce.nextPartialResult(1, 1) == 2)
        #expect(reduce.record().subscriptionDescriptions == ["TryReduce"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryReduce(0) { _, _ in throw TestError.other } }
    }
}
