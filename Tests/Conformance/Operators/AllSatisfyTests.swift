// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AllSatisfyTests {
    @Test func trueWhenEveryElementPasses() {
        #expect(
            [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }.record().events == [
                .subscription, .value(true), .finished,
            ])
    }

    @Test func foldBehaviour() {
        FoldChecks.check(input: [2, 4, 6], result: true, emptyResult: true) { $0.allSatisfy { $0.isMultiple(of: 2) } }
        FoldChecks.check(input: [2, 3], result: false, emptyResult: true, finishesEarly: true) {
            $0.allSatisfy { $0.isMultiple(of: 2) }
        }
    }

    @Test func firstFailingElementSettlesItAndCancelsUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.allSatisfy {
            calls += 1
            return $0 < 3
        }.record(initialDemand: .max(1))
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.events == [.subscription])
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(false), .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(4)
        #expect(calls == 3, "the predicate is not asked after the answer is known")
    }

    @Test func publicShape() {
        let allSatisfy = Publishers.AllSatisfy(upstream: Just(1)) { $0 > 0 }
        #expect(allSatisfy.predicate(1))
        #expect(allSatisfy.upstream == Just(1))
        #expect(allSatisfy.record().subscriptionDescriptions == ["AllSatisfy"])
    }
}

@Suite struct TryAllSatisfyTests {
    @Test func foldBehaviour() {
        FoldChecks.check(input: [2, 4, 6], result: true, emptyResult: true) {
            $0.tryAllSatisfy { $0.isMultiple(of: 2) }
        }
        FoldChecks.check(input: [2, 3], result: false, emptyResult: true, finishesEarly: true) {
            $0.tryAllSatisfy { $0.isMultiple(of: 2) }
        }
    }

    @Test func throwCancelsUpstreamAndFailsWithoutDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryAllSatisfy {
            if $0 == 2 { throw TestError.oops }
            return true
        }.record(initialDemand: nil)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.trace == ["subscription", "failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() throws {
        let allSatisfy = Publishers.TryAllSatisfy(upstream: Just(1)) { $0 > 0 }
        #expect(try allSatisfy.predicate(1))
        #expect(allSatisfy.record().subscriptionDescriptions == ["TryAllSatisfy"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryAllSatisfy { _ in throw TestError.other } }
    }
}
