// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct CompactMapTests {
    @Test func publishesNonNilResultsAndAsksOneMoreForEachNil() {
        let upstream = TestPublisher<String, TestError>()
        let recorder = upstream.compactMap(Int.init).record(initialDemand: .max(2), demandPerValue: .max(4))
        #expect(upstream.send("1") == .max(4))
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("12.5") == .max(1))
        #expect(upstream.send("6") == .max(4))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(6), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<String, TestError>()
        let recorder = upstream.compactMap(Int.init).record()
        upstream.send("x")
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func limitedAndZeroDemand() {
        let recorder = ["1", "x", "2", "y", "3"].publisher.compactMap(Int.init).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completions.isEmpty)
        recorder.request(.max(1))
        #expect(recorder.events.suffix(2) == [.value(3), .finished])
    }

    @Test func cancelMidStreamAndReentrantRequest() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1), cancelAfterValues: 2)
        recorder.onValue = { _ in recorder.request(.max(1)) }
        upstream.compactMap { $0 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.values == [1, 2])
        #expect(upstream.events == [.subscribe, .request(.max(1)), .request(.max(1)), .request(.max(1)), .cancel])
    }

    @Test func compactMapOfCompactMapComposes() {
        let upstream = TestPublisher<String, TestError>()
        let composed: Publishers.CompactMap<TestPublisher<String, TestError>, Int> =
            upstream.compactMap(Int.init).compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        #expect(composed.upstream === upstream)
        let recorder = composed.record()
        #expect(upstream.send("0") == .none)
        #expect(upstream.send("3") == .max(1))
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("12") == .none)
        #expect(recorder.values == [0, 6])
    }

    @Test func mapOfCompactMapComposes() {
        let upstream = TestPublisher<String, TestError>()
        let composed: Publishers.CompactMap<TestPublisher<String, TestError>, Int> =
            upstream.compactMap(Int.init).map { $0 + 1 }
        #expect(composed.upstream === upstream)
        let recorder = composed.record()
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("4") == .none)
        #expect(recorder.values == [5])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.compactMap { $0 == 2 ? nil : $0 } }
    }
}

@Suite struct TryCompactMapTests {
    @Test func publishesNonNilResultsAndAsksOneMoreForEachNil() {
        let upstream = TestPublisher<String, TestError>()
        let recorder = upstream.tryCompactMap(Int.init).record(initialDemand: .max(2), demandPerValue: .max(4))
        #expect(upstream.send("1") == .max(4))
        #expect(upstream.send("b") == .max(1))
        #expect(upstream.send("2") == .max(4))
        upstream.send(completion: .finished)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "finished"])
        #expect(upstream.events == [.subscribe, .request(.max(2))])
    }

    @Test func throwCancelsUpstreamThenFails() {
        let upstream = TestPublisher<String, TestError>()
        var calls = 0
        let recorder = upstream.tryCompactMap { value -> Int? in
            calls += 1
            if value == "throw" { throw TestError.oops }
            return Int(value)
        }.record(initialDemand: .max(3), demandPerValue: .max(10))
        #expect(upstream.send("2") == .max(10))
        #expect(upstream.send("throw") == .none)
        _ = upstream.lastSubscriber?.receive("9")
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(recorder.trace == ["subscription", "value(2)", "failure(oops)"])
        #expect(calls == 2)
    }

    @Test func limitedDemand() {
        let recorder = ["1", "x", "2", "3"].publisher.tryCompactMap(Int.init).record(initialDemand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completions.isEmpty)
    }

    @Test func compactMapOfTryCompactMapComposesAndMayThrow() throws {
        let upstream = TestPublisher<String, TestError>()
        let composed: Publishers.TryCompactMap<TestPublisher<String, TestError>, Int> =
            upstream.tryCompactMap(Int.init).compactMap { value -> Int? in
                if value < 0 { throw TestError.other }
                return value.isMultiple(of: 2) ? value / 2 : nil
            }
        #expect(composed.upstream === upstream)
        #expect(try ["0", "3", "a", "12"].map(composed.transform) == [0, nil, nil, 6])
        let recorder = composed.record()
        upstream.send("4")
        upstream.send("-1")
        #expect(recorder.trace == ["subscription", "value(2)", "failure(other)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func tryOperatorLaw() {
        TryOperatorLaws.check {
            $0.tryCompactMap { value -> Int? in
                if value == 2 { throw TestError.other }
                return value
            }
        }
    }

    @Test func laws() {
        OperatorLaws.check { $0.tryCompactMap { $0 == 2 ? nil : $0 } }
    }
}
