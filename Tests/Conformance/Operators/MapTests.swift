// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct MapTests {
    @Test func transformsEveryValue() {
        let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().map { $0 * 10 }.record()
        #expect(recorder.events == [.subscription, .value(10), .value(20), .value(30), .finished])
    }

    @Test func demandAndCancelPassStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { "\($0)" }.record(initialDemand: .max(2), demandPerValue: .max(1))
        #expect(upstream.events == [.subscribe, .request(.max(2))])
        #expect(upstream.send(1) == .max(1))
        recorder.request(.max(3))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(3)), .cancel])
        #expect(recorder.values == ["1"])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map { $0 + 1 }.record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(2), .failure(.oops)])
    }

    @Test func zeroDemandDeliversNothing() {
        let recorder = [1, 2].publisher.eraseToAnyPublisher().map { $0 }.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.values == [1])
    }

    @Test func mapOfMapComposesIntoOneMap() {
        let composed: Publishers.Map<Publishers.Sequence<[Int], Never>, String> = Publishers.Map(
            upstream: [1, 2].publisher
        ) { $0 * 2 }.map { "\($0)" }
        #expect(composed.record().values == ["2", "4"])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.map { $0 * 2 } }
    }
}

@Suite struct FilterTests {
    @Test func republishesMatchingValuesAndAsksOneMoreForEachDrop() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.filter { $0.isMultiple(of: 2) }.record(initialDemand: .max(2))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(1))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func limitedDemandIsHonouredAcrossDrops() {
        let recorder = (1...10).publisher.eraseToAnyPublisher().filter { $0.isMultiple(of: 3) }.record(
            initialDemand: .max(2))
        #expect(recorder.values == [3, 6])
        #expect(recorder.completions.isEmpty)
    }

    @Test func filterOfFilterComposes() {
        let composed: Publishers.Filter<AnyPublisher<Int, Never>> = (1...20).publisher.eraseToAnyPublisher().filter {
            $0.isMultiple(of: 2)
        }.filter { $0.isMultiple(of: 3) }
        #expect(composed.record().values == [6, 12, 18])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.filter { _ in false }.record()
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.filter { $0 != 2 } }
    }
}
