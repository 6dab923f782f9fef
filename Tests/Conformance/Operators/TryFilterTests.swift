// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct TryFilterTests {
    @Test func republishesMatchingValuesAndAsksOneMoreForEachDrop() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryFilter { $0.isMultiple(of: 2) }.record(
            initialDemand: .max(2), demandPerValue: .max(4))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(4))
        #expect(upstream.send(3) == .max(1))
        #expect(upstream.send(4) == .max(4))
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(2)", "value(4)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func throwCancelsUpstreamThenFails() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.tryFilter { value in
            calls += 1
            if value == 5 { throw TestError.oops }
            return value.isMultiple(of: 2)
        }.record(initialDemand: .max(3), demandPerValue: .max(42))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(42))
        #expect(upstream.send(5) == .none)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        _ = upstream.lastSubscriber?.receive(6)
        recorder.request(.max(1000))
        #expect(recorder.trace == ["subscription", "value(2)", "failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(calls == 3)
    }

    @Test func limitedAndZeroDemandAcrossDrops() {
        let recorder = (1...10).publisher.tryFilter { $0.isMultiple(of: 3) }.record(initialDemand: nil)
        #expect(recorder.trace == ["subscription"])
        recorder.request(.max(2))
        #expect(recorder.values == [3, 6])
        recorder.request(.unlimited)
        #expect(recorder.trace.suffix(2) == ["value(9)", "finished"])
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryFilter { _ in true }.record(cancelAfterValues: 1)
        upstream.send(1)
        upstream.send(2)
        #expect(recorder.trace == ["subscription", "value(1)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func filterThenTryFilterComposesAndShortCircuits() {
        var secondCalls = 0
        let upstream = TestPublisher<Int, TestError>()
        let composed: Publishers.TryFilter<TestPublisher<Int, TestError>> =
            upstream.filter { $0.isMultiple(of: 2) }.tryFilter { value in
                secondCalls += 1
                if value == 8 { throw TestError.other }
                return value.isMultiple(of: 3)
            }
        #expect(composed.upstream === upstream)
        let recorder = composed.record()
        for value in 1...8 { upstream.send(value) }
        #expect(recorder.trace == ["subscription", "value(6)", "failure(other)"])
        #expect(secondCalls == 4, "the second closure sees only what the first let through")
    }

    @Test func tryFilterThenFilterAndTryFilterCompose() throws {
        let upstream = TestPublisher<Int, TestError>()
        let thenFilter: Publishers.TryFilter<TestPublisher<Int, TestError>> =
            upstream.tryFilter { $0 > 2 }.filter { $0.isMultiple(of: 2) }
        let thenTryFilter: Publishers.TryFilter<TestPublisher<Int, TestError>> =
            upstream.tryFilter { $0 > 2 }.tryFilter { value in
                if value == 5 { throw TestError.oops }
                return true
            }
        #expect(try [1, 2, 3, 4].map(thenFilter.isIncluded) == [false, false, false, true])
        #expect(try thenTryFilter.isIncluded(1) == false, "the first closure short-circuits the second")
        #expect(throws: TestError.oops) { try thenTryFilter.isIncluded(5) }
    }

    @Test func tryOperatorLaw() {
        TryOperatorLaws.check {
            $0.tryFilter { value in
                if value == 2 { throw TestError.other }
                return true
            }
        }
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryFilter { $0 != 2 } }
    }
}
