// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Chains of one-to-one operators over synchronous sources (`(1...n).publisher`, `Just`).
///
/// In Sluice these run fused (one loop, no subscription per stage); in the reference each
/// operator has its own subscription. Both must produce exactly the events Combine does, so every
/// expectation here is a literal. Chains start with an operator that has no eager overload on
/// `Publishers.Sequence` or `Just` (`tryMap`, `tryFilter`, `tryCompactMap`, `tryScan`, a key-path
/// `map`), so that what runs is the operator chain, not an eagerly computed sequence.
@Suite struct FusedChainTests {
    /// The stages log their calls here, to check that an element goes through every stage before
    /// the next one is pulled, and that nothing is pulled beyond demand.
    final class CallLog {
        var calls: [String] = []
        func note(_ call: String) { calls.append(call) }
    }

    @Test func limitedDemandThenMore() {
        let log = CallLog()
        let chain = (1...10).publisher
            .tryMap { value -> Int in
                log.note("tryMap \(value)"); return value
            }
            .scan(0) { total, value in
                log.note("scan \(value)"); return total + value
            }
            .compactMap { value -> Int? in
                log.note("compactMap \(value)"); return value.isMultiple(of: 2) ? nil : value
            }
            .removeDuplicates()
        let recorder = chain.record(initialDemand: .max(2))
        // Running totals: 1 3 6 10 15 21 28 36 45 55; odd ones: 1 3 15 21 45 55.
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
        #expect(
            log.calls == ["tryMap 1", "scan 1", "compactMap 1", "tryMap 2", "scan 2", "compactMap 3"],
            "one element runs through every stage before the next, and nothing is pulled beyond demand")
        recorder.request(.max(1))
        #expect(recorder.values == [1, 3, 15])
        #expect(log.calls.count == 15)
        recorder.request(.unlimited)
        #expect(recorder.events.suffix(4) == [.value(21), .value(45), .value(55), .finished])
        #expect(log.calls.count == 30)
    }

    @Test func zeroDemandPullsNothing() {
        var calls = 0
        let recorder = (1...3).publisher.tryFilter { _ in
            calls += 1; return true
        }.scan(0, +).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        #expect(calls == 0)
        recorder.request(.max(3))
        #expect(
            recorder.trace == ["subscription", "value(1)", "value(3)", "value(6)", "finished"],
            "the chain finishes right after the source's last element, without more demand")
    }

    @Test func aSkippedLastElementFinishesOnlyWhenPulled() {
        let recorder = (1...4).publisher
            .tryCompactMap { $0 == 4 ? nil : $0 }
            .removeDuplicates()
            .record(initialDemand: .max(3))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "value(3)"])
        recorder.request(.max(1))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
    }

    @Test func demandReturnedPerValue() {
        let recorder = (1...6).publisher
            .tryScan(0) { (total: Int, value: Int) -> Int in total + value }
            .removeDuplicates { (previous: Int, current: Int) -> Bool in previous / 10 == current / 10 }
            .record(initialDemand: .max(1), demandPerValue: .max(1))
        // Totals 1 3 6 10 15 21; by tens: 1 (0s), 10 (10s), 21 (20s).
        #expect(recorder.trace == ["subscription", "value(1)", "value(10)", "value(21)", "finished"])
    }

    @Test func demandReturnedOnlyByTheLastAllowedValue() {
        let chain = (1...5).publisher.tryMap { (value: Int) -> Int in value * 2 }
        let recorder = chain.record(initialDemand: .max(2)) { (value: Int) -> Subscribers.Demand in
            value == 4 ? .max(2) : .none
        }
        #expect(recorder.trace == ["subscription", "value(2)", "value(4)", "value(6)", "value(8)"])
        recorder.request(.max(5))
        #expect(recorder.trace.suffix(2) == ["value(10)", "finished"])
    }

    @Test func requestFromInsideReceive() {
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        (1...4).publisher.tryFilter { $0 != 2 }.map(\.self).subscribe(recorder)
        #expect(recorder.trace == ["subscription", "value(1)", "value(3)", "value(4)", "finished"])
    }

    @Test func cancelFromInsideReceiveStopsPulling() {
        var pulled: [Int] = []
        let recorder = (1...10).publisher
            .tryMap { value -> Int in
                pulled.append(value); return value
            }
            .compactMap { $0 }
            .record(cancelAfterValues: 2)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)"])
        #expect(pulled == [1, 2])
        recorder.request(.max(3))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)"])
    }

    @Test func cancelFromInsideReceiveOfTheLastElementSuppressesFinished() {
        let recorder = (1...2).publisher.tryMap { $0 }.record(cancelAfterValues: 2)
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)"])
        let justRecorder = Just(7).tryCompactMap { $0 }.record(cancelAfterValues: 1)
        #expect(justRecorder.trace == ["subscription", "value(7)"])
    }

    @Test func aThrowInTheMiddleEndsTheChain() {
        var after: [Int] = []
        let recorder = (1...10).publisher
            .tryMap { $0 }
            .scan(0, +)
            .tryFilter { total in
                if total > 10 { throw TestError.oops }
                return total.isMultiple(of: 3)
            }
            .compactMap { value -> Int? in
                after.append(value); return value
            }
            .record(initialDemand: .max(1), demandPerValue: .max(1))
        // Totals 1 3 6 10 15: 3 and 6 pass, 15 throws.
        #expect(recorder.trace == ["subscription", "value(3)", "value(6)", "failure(oops)"])
        #expect(after == [3, 6])
        recorder.request(.max(1))
        #expect(recorder.trace.count == 4)
    }

    @Test func aThrowWaitsForDemand() {
        let recorder = (1...5).publisher
            .tryMap { value -> Int in
                if value == 3 { throw TestError.other }
                return value
            }
            .record(initialDemand: .max(2))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)"])
        recorder.request(.max(1))
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "failure(other)"])
    }

    @Test func failuresAreConvertedOnTheWay() {
        struct Wrapped: Error, CustomStringConvertible {
            let inner: any Error
            var description: String { "wrapped(\(inner))" }
        }
        let recorder = (1...3).publisher
            .tryRemoveDuplicates { _, current in
                if current == 3 { throw TestError.oops }
                return false
            }
            .mapError { Wrapped(inner: $0) }
            .record()
        #expect(recorder.trace == ["subscription", "value(1)", "value(2)", "failure(wrapped(oops))"])
    }

    @Test func replaceErrorAfterAChainWaitsForDemand() {
        let recorder = (1...5).publisher
            .tryMap { value -> Int in
                if value == 3 { throw TestError.oops }
                return value * 10
            }
            .replaceError(with: 0)
            .record(initialDemand: .max(2))
        #expect(recorder.events == [.subscription, .value(10), .value(20)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(10), .value(20), .value(0), .finished])
    }

    @Test func setFailureTypeAndKeyPathsInAChain() {
        let typed:
            Publishers.SetFailureType<
                Publishers.MapKeyPath<Publishers.Sequence<ClosedRange<Int>, Never>, Int>, TestError
            > =
                (1...4).publisher.map(\.self).setFailureType(to: TestError.self)
        let recorder =
            typed
            .scan(0, +)
            .map(\.description, \.self)
            .tryMap { text, value in "\(text):\(value * 2)" }
            .record(initialDemand: .max(2))
        #expect(recorder.trace == ["subscription", "value(1:2)", "value(3:6)"])
        recorder.request(.max(2))
        #expect(
            recorder.trace == ["subscription", "value(1:2)", "value(3:6)", "value(6:12)", "value(10:20)", "finished"])
    }

    @Test func eachSubscriptionStartsAfresh() {
        let chain = (1...4).publisher.tryScan(0, +).scan(0, +).removeDuplicates()
        let first = chain.record(initialDemand: .max(2))
        let second = chain.record()
        #expect(first.trace == ["subscription", "value(1)", "value(4)"])
        #expect(second.trace == ["subscription", "value(1)", "value(4)", "value(10)", "value(20)", "finished"])
        first.request(.unlimited)
        #expect(first.trace == second.trace)
    }

    @Test func justThroughAChain() {
        let recorder = Just(5)
            .tryCompactMap { $0 }
            .scan(10, +)
            .removeDuplicates()
            .map(\.self)
            .record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.trace == ["subscription", "value(15)", "finished"])
    }

    @Test func justDroppedOrThrownByTheChain() {
        let dropped = Just(5).tryFilter { $0 > 5 }.scan(0, +).record(initialDemand: nil)
        #expect(dropped.trace == ["subscription"])
        dropped.request(.max(1))
        #expect(dropped.trace == ["subscription", "finished"])

        let thrown = Just(5).tryCompactMap { _ -> Int? in throw TestError.oops }.removeDuplicates().record(
            initialDemand: nil)
        #expect(thrown.trace == ["subscription"])
        thrown.request(.max(1))
        #expect(thrown.trace == ["subscription", "failure(oops)"])
    }

    @Test func sinkRunsTheChain() {
        var values: [Int] = []
        var completions: [String] = []
        let cancellable = (1...6).publisher
            .tryFilter { $0 != 3 }
            .scan(0, +)
            .tryMap { total -> Int in
                if total > 12 { throw TestError.other }
                return total
            }
            .sink(receiveCompletion: { completions.append("\($0)") }, receiveValue: { values.append($0) })
        #expect(values == [1, 3, 7, 12])
        #expect(completions == ["\(Subscribers.Completion<any Error>.failure(TestError.other))"])
        cancellable.cancel()
    }
}
