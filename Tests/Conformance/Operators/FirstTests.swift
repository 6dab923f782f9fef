// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct FirstTests {
    @Test func firstElementThenFinished() {
        #expect([4, 5, 6].publisher.first().record().events == [.subscription, .value(4), .finished])
        #expect([Int]().publisher.first().record().events == [.subscription, .finished])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [5, 6], result: 5, emptyResult: nil, finishesEarly: true) { $0.first() }
    }

    @Test func firstElementCancelsUpstreamAtOnceAndWaitsForDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.first().record(initialDemand: nil)
        #expect(upstream.send(1) == .none)
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(2)
        recorder.request(.unlimited)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() {
        let first = Publishers.First(upstream: Just(1))
        #expect(first == Just(1).first())
        #expect(first.record().subscriptionDescriptions == ["First"])
    }
}

@Suite struct FirstWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 3], result: 3, emptyResult: nil, finishesEarly: true) { $0.first { $0 > 2 } }
        FoldChecks.check(input: [1, 2], result: nil, emptyResult: nil) { $0.first { $0 > 2 } }
    }

    @Test func predicateIsNotAskedAfterAMatch() {
        let upstream = TestPublisher<Int, TestError>()
        var asked: [Int] = []
        let recorder = upstream.first {
            asked.append($0)
            return $0 > 1
        }.record(initialDemand: nil)
        for value in 0...3 { upstream.sendKeepingSubscriber(value) }
        #expect(asked == [0, 1, 2])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(2), .finished])
    }

    /// Combine names this subscription "TryFirst".
    @Test func publicShape() {
        let first = Publishers.FirstWhere(upstream: Just(1)) { $0 == 1 }
        #expect(first.predicate(1))
        #expect(first.record().subscriptionDescriptions == ["TryFirst"])
    }
}

@Suite struct TryFirstWhereTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [1, 3], result: 3, emptyResult: nil, finishesEarly: true) { $0.tryFirst { $0 > 2 } }
        FoldChecks.check(input: [1, 2], result: nil, emptyResult: nil) { $0.tryFirst { $0 > 2 } }
    }

    @Test func throwCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryFirst {
            if $0 == 2 { throw TestError.oops }
            return false
        }.record(initialDemand: nil)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.trace == ["subscription", "failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() throws {
        let first = Publishers.TryFirstWhere(upstream: Just(1)) { $0 == 1 }
        #expect(try first.predicate(1))
        #expect(first.record().subscriptionDescriptions == ["TryFirstWhere"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryFirst { _ in throw TestError.oops } }
    }
}
