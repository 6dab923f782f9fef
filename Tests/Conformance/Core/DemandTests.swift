// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

@Suite struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func additionIsAdditiveAndSaturates() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + 1 == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
        var demand = Demand.none
        demand += .max(1)
        demand += 2
        #expect(demand == .max(3))
    }

    @Test func subtraction() {
        #expect(Demand.max(5) - .max(3) == .max(2))
        #expect(Demand.max(5) - 5 == .none)
        #expect(Demand.unlimited - .max(3) == .unlimited)
        #expect(Demand.unlimited - 1 == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(3) - .unlimited == .none)
        var demand = Demand.max(3)
        demand -= 1
        demand -= .max(1)
        #expect(demand == .max(1))
        // Subtracting a negative number adds, but past Int.max Combine answers .none.
        #expect(Demand.max(5) - (-2) == .max(7))
        #expect(Demand.max(Int.max) - (-1) == .none)
    }

    /// Combine's coded form: the count, and one past Int.max for .unlimited; any larger number
    /// decodes as .unlimited, a negative one does not decode.
    @Test func codedAsCombineCodesIt() throws {
        struct Wrapper: Codable, Equatable { let value: Demand }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(Wrapper(value: .max(42))), as: UTF8.self) == #"{"value":42}"#)
        #expect(
            String(decoding: try encoder.encode(Wrapper(value: .unlimited)), as: UTF8.self)
                == #"{"value":9223372036854775808}"#)
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(Wrapper.self, from: Data(#"{"value":9223372036854775808}"#.utf8)).value == .unlimited)
        #expect(
            try decoder.decode(Wrapper.self, from: Data(#"{"value":9223372036854775809}"#.utf8)).value == .unlimited)
        #expect(throws: (any Error).self) { try decoder.decode(Wrapper.self, from: Data(#"{"value":-1}"#.utf8)) }
    }

    @Test func multiplication() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 4 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisonsWithIntsAndDemands() {
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited >= 0)
        #expect(!(Demand.unlimited < 5))
        #expect(!(Demand.unlimited <= Int.max))
        #expect(Demand.unlimited != 5)
        #expect(Demand.max(3) == 3)
        #expect(Demand.max(3) > 2)
        #expect(Demand.max(3) >= 3)
        #expect(Demand.max(3) < 4)
        #expect(Demand.max(3) <= 3)
        #expect(3 == Demand.max(3))
        #expect(2 < Demand.max(3))
        #expect(4 > Demand.max(3))
        #expect(3 <= Demand.max(3))
        #expect(3 >= Demand.max(3))
        #expect(1 != Demand.max(3))
        #expect(Demand.max(3) < .unlimited)
        #expect(Demand.none < .max(1))
        #expect(Demand.none == .max(0))
        #expect([Demand.unlimited, .max(2), .none].sorted() == [.none, .max(2), .unlimited])
    }

    @Test func maxAndDescription() {
        #expect(Demand.max(7).max == 7)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(7).description == "max(7)")
        #expect(Set([Demand.max(1), .max(1), .unlimited]).count == 2)
    }

    @Test func negativeMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }
        expectTrapMessage(result, contains: "demand cannot be negative")
    }

    /// Apple's documentation of `-` and `-=`: "A negative demand is impossible; when an operation
    /// would result in a negative value, Combine adjusts the value to `.max(0)`." Adding a negative
    /// number follows the same rule.
    @Test func arithmeticBelowZeroIsNone() {
        #expect(Subscribers.Demand.max(1) - .max(2) == .none)
        #expect(Subscribers.Demand.max(1) - 2 == .none)
        #expect(Subscribers.Demand.max(3) - 3 == .none)
        #expect(Subscribers.Demand.max(0) - Int.max == .none)
        #expect(Subscribers.Demand.max(5) + -7 == .none)
        #expect(Subscribers.Demand.max(5) + Int.min == .none)
        var demand = Subscribers.Demand.max(2)
        demand -= .max(5)
        #expect(demand == .none)
        demand = .max(2)
        demand -= 5
        #expect(demand == .none)
        demand = .max(2)
        demand += -1
        #expect(demand == .max(1))
        #expect(Subscribers.Demand.unlimited - Int.max == .unlimited)
        #expect(Subscribers.Demand.unlimited + Int.min == .unlimited)
    }

    @Test func negativeMultiplicationTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(1) * -2
        }
        expectTrapMessage(result, contains: "API violation: Subscribers.Demand multiplied by a negative number")
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            Just(1).subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on Just's subscription")
    }

    /// As Combine's (OpenCombine's Apple-validated SequenceTests and RecordTests): the sequence
    /// and recording subscriptions take a zero request without trapping, and do nothing.
    @Test func theSequenceAndRecordingSubscriptionsTakeAZeroRequest() {
        let sequence = [1, 2, 3].publisher.record(initialDemand: .max(1))
        sequence.request(.none)
        #expect(sequence.values == [1])
        let record = Record<Int, Never>(output: [1, 2], completion: .finished).record(initialDemand: .max(1))
        record.request(.none)
        #expect(record.values == [1])
    }

    /// As Combine's (OpenCombine's HandleEventsTests, TimeoutTests, PrefixUntilOutputTests): the
    /// operators that only pass demand on pass a zero request on too, without trapping.
    @Test func passingOnOperatorsPassAZeroRequestOn() {
        func check<P: Publisher>(
            _ make: (TestPublisher<Int, TestError>) -> P, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let upstream = TestPublisher<Int, TestError>()
            let recorder = make(upstream).record(initialDemand: nil)
            recorder.request(.none)
            #expect(upstream.events == [.subscribe, .request(.none)], sourceLocation: sourceLocation)
        }
        check { $0.handleEvents() }
        check { $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)) }
        check { $0.measureInterval(using: ImmediateScheduler.shared) }
        check { $0.append(Empty()) }
    }

    @Test func requestingNoneThroughAnOperatorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            Just(1).eraseToAnyPublisher().map { $0 + 1 }.filter { _ in true }.subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "API violation: request(.none) on ")
    }
}

@Suite struct CompletionTests {
    @Test func equatableAndHashable() {
        let finished = Subscribers.Completion<TestError>.finished
        #expect(finished == .finished)
        #expect(Subscribers.Completion<TestError>.failure(.oops) != .failure(.other))
        #expect(Set([finished, .failure(.oops), .failure(.oops)]).count == 2)
    }
}
