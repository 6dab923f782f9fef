// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct TryMapTests {
    @Test func transformsEveryValueAndFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryMap { $0 * 10 }.record()
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(10)", "value(20)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func throwCancelsUpstreamThenFailsWithTheThrownError() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.tryMap { value -> Int in
            calls += 1
            if value == 100 { throw TestError.oops }
            return value * 2
        }.record(initialDemand: .max(3), demandPerValue: .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(100) == .none)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(recorder.trace == ["subscription", "value(4)", "failure(oops)"])
        _ = upstream.lastSubscriber?.receive(3)
        #expect(calls == 2, "the closure is not called after the stream failed")
    }

    @Test func demandPassesStraightUpstreamInBothDirections() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryMap { "\($0)" }.record(initialDemand: .max(2), demandPerValue: { _ in .max(4) })
        #expect(upstream.send(1) == .max(4))
        recorder.request(.max(7))
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(7))])
        #expect(recorder.values == ["1"])
    }

    @Test func zeroDemandRequestsNothing() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryMap { $0 }.record(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        #expect(recorder.trace == ["subscription"])
    }

    @Test func limitedDemandFromASequenceIsHonoured() {
        let recorder = (1...5).publisher.tryMap { $0 * $0 }.record(initialDemand: .max(2))
        #expect(recorder.values == [1, 4])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 4, 9])
        #expect(recorder.completions.isEmpty)
    }

    @Test func cancelMidStreamReachesUpstreamAndStopsDelivery() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryMap { $0 + 1 }.record(cancelAfterValues: 2)
        upstream.send(1)
        upstream.send(2)
        _ = upstream.lastSubscriber?.receive(3)
        #expect(recorder.values == [2, 3])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func requestFromInsideReceiveGoesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        upstream.tryMap { $0 }.subscribe(recorder)
        upstream.send(1)
        #expect(upstream.events == [.subscribe, .request(.max(1)), .request(.max(1))])
    }

    @Test func mapThenTryMapComposesIntoOneTryMap() throws {
        let composed: Publishers.TryMap<TestPublisher<Int, TestError>, String> =
            TestPublisher<Int, TestError>().map { $0 * 2 }.tryMap { value -> String in
                if value == 6 { throw TestError.other }
                return "\(value)"
            }
        #expect(try composed.transform(2) == "4")
        #expect(throws: TestError.other) { try composed.transform(3) }
    }

    @Test func tryMapThenMapComposesIntoOneTryMap() throws {
        let upstream = TestPublisher<Int, TestError>()
        let composed: Publishers.TryMap<TestPublisher<Int, TestError>, Int> =
            upstream.tryMap { value -> Int in
                if value == 3 { throw TestError.other }
                return value * 2
            }.map { $0 + 1 }
        #expect(composed.upstream === upstream)
        let recorder = composed.record()
        upstream.send(1)
        upstream.send(3)
        #expect(recorder.trace == ["subscription", "value(3)", "failure(other)"])
    }

    @Test func tryMapThenTryMapComposesIntoOneTryMap() throws {
        let composed: Publishers.TryMap<TestPublisher<Int, TestError>, Int> =
            TestPublisher<Int, TestError>().tryMap { $0 * 2 }.tryMap { value -> Int in
                if value > 10 { throw TestError.oops }
                return value + 1
            }
        #expect(try composed.transform(2) == 5)
        #expect(throws: TestError.oops) { try composed.transform(6) }
    }

    @Test func tryOperatorLaw() {
        TryOperatorLaws.check {
            $0.tryMap { value -> Int in
                if value == 2 { throw TestError.other }
                return value
            }
        }
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryMap { $0 * 2 } }
    }
}
