// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ContainsTests {
    @Test func trueAtTheFirstMatchFalseOtherwise() {
        #expect([1, 2, 3].publisher.contains(2).record().events == [.subscription, .value(true), .finished])
        #expect([1, 2, 3].publisher.contains(5).record().events == [.subscription, .value(false), .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 2], result: true, emptyResult: false, finishesEarly: true) { $0.contains(2) }
        FoldChecks.check(input: [1, 3], result: false, emptyResult: false) { $0.contains(2) }
    }

    @Test func matchCancelsUpstreamAndIgnoresTheRest() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.contains(7).record(initialDemand: nil)
        upstream.send(1)
        upstream.send(7)
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(8)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(true), .finished])
    }

    @Test func publicShape() {
        let contains = Publishers.Contains(upstream: Just(1), output: 1)
        #expect(contains.output == 1)
        #expect(contains == Just(1).contains(1))
        #expect(contains != Just(1).contains(2))
        #expect(contains.record().subscriptionDescriptions == ["Contains"])
    }
}

@Suite struct ContainsWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 4], result: true, emptyResult: false, finishesEarly: true) {
            $0.contains { $0 > 3 }
        }
        FoldChecks.check(input: [1, 2], result: false, emptyResult: false) { $0.contains { $0 > 3 } }
    }

    @Test func predicateIsNotAskedAfterAMatch() {
        let upstream = TestPublisher<Int, TestError>()
        var asked: [Int] = []
        _ = upstream.contains {
            asked.append($0)
            return $0 == 2
        }.record()
        for value in 1...4 { upstream.sendKeepingSubscriber(value) }
        #expect(asked == [1, 2])
    }

    @Test func publicShape() {
        let contains = Publishers.ContainsWhere(upstream: Just(1)) { $0 == 1 }
        #expect(contains.predicate(1))
        #expect(contains.record().subscriptionDescriptions == ["ContainsWhere"])
    }
}

@Suite struct TryContainsWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 4], result: true, emptyResult: false, finishesEarly: true) {
            $0.tryContains { $0 > 3 }
        }
        FoldChecks.check(input: [1, 2], result: false, emptyResult: false) { $0.tryContains { $0 > 3 } }
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryContains { _ in throw TestError.other }.record(initialDemand: nil)
        upstream.send(1)
        #expect(recorder.trace == ["subscription", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() throws {
        let contains = Publishers.TryContainsWhere(upstream: Just(1)) { $0 == 1 }
        #expect(try contains.predicate(1))
        #expect(contains.record().subscriptionDescriptions == ["TryContainsWhere"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryContains { _ in throw TestError.oops } }
    }
}
