// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ScanTests {
    @Test func publishesEveryIntermediateResult() {
        // The seed's oracle (R89): (0...5).publisher.scan(0, +) gives 0 1 3 6 10 15.
        let recorder = (0...5).publisher.scan(0, +).record()
        #expect(
            recorder.events == [
                .subscription, .value(0), .value(1), .value(3), .value(6), .value(10), .value(15), .finished,
            ])
    }

    @Test func resultTypeMayDifferFromInput() {
        let recorder = ["a", "bb", "ccc"].publisher.scan("") { $0 + "\($1.count)" }.record()
        #expect(recorder.values == ["1", "12", "123"])
    }

    @Test func demandPassesStraightThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.scan(0) { $0 + $1 * 2 }.record(initialDemand: .max(3), demandPerValue: { _ in .max(4) })
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(2) == .max(4))
        recorder.request(.max(5))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .value(6), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(5))])
    }

    @Test func failurePassesThroughWithoutCallingTheClosure() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.scan(0) {
            calls += 1; return $0 + $1
        }.record()
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(calls == 0)
    }

    @Test func zeroAndLimitedDemand() {
        let recorder = (1...4).publisher.scan(0, +).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 3])
        recorder.request(.unlimited)
        #expect(recorder.events.suffix(3) == [.value(6), .value(10), .finished])
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2, 3].publisher.scan(10, +)
        #expect(publisher.record().values == [11, 13, 16])
        #expect(publisher.record().values == [11, 13, 16])
    }

    @Test func cancelFromInsideReceive() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.scan(0, +).record(cancelAfterValues: 2)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.scan(0, +) }
    }
}

@Suite struct TryScanTests {
    @Test func publishesEveryIntermediateResult() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.tryScan(0) { $0 + $1 * 2 }.record(
            initialDemand: .max(2), demandPerValue: { _ in .max(3) })
        #expect(upstream.send(1) == .max(3))
        #expect(upstream.send(2) == .max(3))
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(2)", "value(6)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func throwCancelsUpstreamThenFails() {
        let upstream = TestPublisher<Int, TestError>()
        var calls = 0
        let recorder = upstream.tryScan(0) { total, value in
            calls += 1
            if value == 100 { throw TestError.oops }
            return total + value
        }.record(demandPerValue: { _ in .max(3) })
        #expect(upstream.send(2) == .max(3))
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(100) == .none)
        _ = upstream.lastSubscriber?.receive(9)
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(recorder.trace == ["subscription", "value(2)", "value(5)", "failure(oops)"])
        #expect(calls == 3)
    }

    @Test func eachSubscriptionStartsFromTheInitialResult() {
        let publisher = [1, 2].publisher.tryScan(1) { $0 * 10 + $1 }
        #expect(publisher.record().values == [11, 112])
        #expect(publisher.record().values == [11, 112])
    }

    @Test func limitedDemand() {
        let recorder = (1...4).publisher.tryScan(0, +).record(initialDemand: .max(3))
        #expect(recorder.values == [1, 3, 6])
        #expect(recorder.completions.isEmpty)
    }

    @Test func tryOperatorLaw() {
        TryOperatorLaws.check {
            $0.tryScan(0) { total, value in
                if value == 2 { throw TestError.other }
                return total + value
            }
        }
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryScan(0, +) }
    }
}
