// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct LastTests {
    @Test func lastElementAtFinish() {
        #expect([4, 5, 6].publisher.last().record().events == [.subscription, .value(6), .finished])
        #expect([Int]().publisher.last().record().events == [.subscription, .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [25, 42, 10], result: 10, emptyResult: nil) { $0.last() }
    }

    @Test func publicShape() {
        let last = Publishers.Last(upstream: Just(1))
        #expect(last == Just(1).last())
        #expect(last.record().subscriptionDescriptions == ["Last"])
    }
}

@Suite struct LastWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [3, 2, 1, 0], result: 2, emptyResult: nil) { $0.last { $0 > 1 } }
        FoldChecks.check(input: [1, 0], result: nil, emptyResult: nil) { $0.last { $0 > 1 } }
    }

    @Test func predicateSeesEveryElement() {
        var asked: [Int] = []
        let recorder = [3, 2, 1].publisher.eraseToAnyPublisher().last {
            asked.append($0)
            return $0 > 1
        }.record()
        #expect(asked == [3, 2, 1])
        #expect(recorder.values == [2])
    }

    @Test func publicShape() {
        let last = Publishers.LastWhere(upstream: Just(1)) { $0 == 1 }
        #expect(last.predicate(1))
        #expect(last.record().subscriptionDescriptions == ["LastWhere"])
    }
}

@Suite struct TryLastWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [3, 2, 1, 0], result: 2, emptyResult: nil) { $0.tryLast { $0 > 1 } }
        FoldChecks.check(input: [1, 0], result: nil, emptyResult: nil) { $0.tryLast { $0 > 1 } }
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryLast {
            if $0 == 3 { throw TestError.oops }
            return true
        }.record(initialDemand: nil)
        for value in 1...5 { upstream.send(value) }
        #expect(recorder.trace == ["subscription", "failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() throws {
        let last = Publishers.TryLastWhere(upstream: Just(1)) { $0 == 1 }
        #expect(try last.predicate(1))
        #expect(last.record().subscriptionDescriptions == ["TryLastWhere"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryLast { _ in throw TestError.oops } }
    }
}
