// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

/// `ImmediateScheduler`: runs every action at once; its clock never moves. Facts from Combine's
/// observable behaviour (OpenCombine's suite, run against Combine).
@Suite struct ImmediateSchedulerTests {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride

    private struct Keyed<Value: Codable & Equatable>: Codable, Equatable {
        let value: Value
    }

    @Test func timeNeverMoves() {
        let scheduler = ImmediateScheduler.shared
        let now = scheduler.now
        #expect(scheduler.now == now)
        #expect(now.advanced(by: 100) == now)
        #expect(now.distance(to: now.advanced(by: -1)) == 0)
        #expect(now.distance(to: now.advanced(by: 5)) == Stride(0))
        #expect(!(now < now.advanced(by: 7)))
        #expect(scheduler.minimumTolerance == 0)
    }

    @Test func strideLiteralsAndArithmetic() {
        #expect(Stride(14) == 14)
        #expect(Stride(-4) == -4)
        // Float literals drop the fraction.
        #expect(Stride(14) == 14.6)
        #expect(Stride(-4) == -4.1)
        #expect(Stride(14).magnitude == 14)
        #expect(Stride(-4).magnitude == -4)
        #expect(Stride(1) < Stride(2))
        #expect(Stride(-10) < Stride(2))
        #expect(Stride(-4) * Stride(5) == Stride(-20))
        #expect(Stride(10) * Stride(3) == Stride(30))
        #expect(Stride(-4) + Stride(5) == Stride(1))
        #expect(Stride(10) + Stride(3) == Stride(13))
        #expect(Stride(-4) - Stride(5) == Stride(-9))
        #expect(Stride(10) - Stride(3) == Stride(7))
        var stride = Stride(-4)
        stride += Stride(5)
        #expect(stride == 1)
        stride -= Stride(-10)
        #expect(stride == 11)
        stride *= 2
        #expect(stride == 22)
        #expect(-stride == -22)
        #expect(Stride(exactly: 12 as UInt8) == 12)
        #expect(Stride(exactly: UInt64.max) == nil)
    }

    @Test func unitConversionsAreZero() {
        #expect(Stride.seconds(1.2) == 0)
        #expect(Stride.seconds(1100) == 0)
        #expect(Stride.milliseconds(123) == 0)
        #expect(Stride.microseconds(51) == 0)
        #expect(Stride.nanoseconds(23) == 0)
    }

    @Test func strideCodesItsValueUnderMagnitude() throws {
        let encoded = try JSONEncoder().encode(Keyed(value: Stride(-42)))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"magnitude":-42}}"#)
        #expect(try JSONDecoder().decode(Keyed<Stride>.self, from: encoded).value == -42)
    }

    @Test func everyScheduleFormRunsTheActionBeforeReturning() {
        let scheduler = ImmediateScheduler.shared
        var runs = 0
        scheduler.schedule { runs += 1 }
        #expect(runs == 1)
        scheduler.schedule(after: scheduler.now) { runs += 1 }
        #expect(runs == 2)
        scheduler.schedule(after: scheduler.now.advanced(by: 1_000), tolerance: 5) { runs += 1 }
        #expect(runs == 3)
        let token = scheduler.schedule(after: scheduler.now, interval: 10) { runs += 1 }
        // The repeating form runs once, and its cancellable has nothing to cancel.
        #expect(runs == 4)
        #expect(String(describing: token) == "Empty")
        token.cancel()
        #expect(runs == 4)
    }

    @Test func actionsMayScheduleMoreActionsWhichRunNested() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule {
            log.append("outer-start")
            scheduler.schedule { log.append("inner") }
            log.append("outer-end")
        }
        #expect(log == ["outer-start", "inner", "outer-end"])
    }
}
