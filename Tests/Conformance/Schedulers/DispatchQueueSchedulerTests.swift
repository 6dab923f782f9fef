// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import Synchronization
import Testing

/// `DispatchQueue` as a Combine scheduler: its time and stride types (facts from Combine's
/// observable behaviour, via OpenCombine's suite) and the three ways it runs actions.
@Suite struct DispatchQueueSchedulerTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    private struct Keyed<Value: Codable & Equatable>: Codable, Equatable {
        let value: Value
    }

    private static func time(_ nanoseconds: UInt64) -> Time { Time(DispatchTime(uptimeNanoseconds: nanoseconds)) }

    // MARK: Time

    @Test func distanceIsExactOrSaturatesAtMax() {
        let time1 = Self.time(10_000)
        let time2 = Self.time(10_431)
        let distantFuture = Time(.distantFuture)
        let notSoDistantFuture = Self.time(DispatchTime.distantFuture.uptimeNanoseconds - 1024)
        let intMax = Self.time(UInt64(Int.max))

        #expect(time1.distance(to: time2) == .nanoseconds(431))
        #expect(time2.distance(to: time1) == .nanoseconds(-431))
        // Too far to count in an Int: .max, whichever way.
        for near in [time1, time2] {
            #expect(near.distance(to: distantFuture) == .nanoseconds(.max))
            #expect(distantFuture.distance(to: near) == .nanoseconds(.max))
            #expect(near.distance(to: notSoDistantFuture) == .nanoseconds(.max))
            #expect(notSoDistantFuture.distance(to: near) == .nanoseconds(.max))
        }
        #expect(time1.distance(to: intMax) == .nanoseconds(.max - 10_000))
        #expect(intMax.distance(to: time1) == .nanoseconds(-(.max - 10_000)))
        #expect(time2.distance(to: intMax) == .nanoseconds(.max - 10_431))
        #expect(intMax.distance(to: time2) == .nanoseconds(-(.max - 10_431)))
        for time in [distantFuture, notSoDistantFuture, intMax] {
            #expect(time.distance(to: time) == .nanoseconds(0))
        }
    }

    @Test func advancedStaysOnTheClock() {
        let time = Self.time(10_000)
        #expect(time.advanced(by: .nanoseconds(431)) == Self.time(10_431))
        #expect(time.advanced(by: .nanoseconds(-220)) == Self.time(9_780))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(Time(.distantFuture).advanced(by: .seconds(1)).dispatchTime == .distantFuture)
        #expect(Time(.distantFuture).advanced(by: .seconds(-1)).dispatchTime == .distantFuture)
        #expect(Self.time(UInt64(Int.max) + 2).advanced(by: .nanoseconds(-3)).dispatchTime == .distantFuture)
        #expect(Self.time(UInt64(Int.max)).advanced(by: .nanoseconds(1)).dispatchTime == .distantFuture)
        #expect(Self.time(UInt64(Int.max)).advanced(by: .nanoseconds(-1)) == Self.time(UInt64(Int.max) - 1))
        #expect(Self.time(1).advanced(by: .nanoseconds(-1000)).dispatchTime == DispatchTime(uptimeNanoseconds: 1))
        #expect(time.advanced(by: .nanoseconds(.min)).dispatchTime == DispatchTime(uptimeNanoseconds: 1))
        #expect(time.advanced(by: .milliseconds(1)) == Self.time(1_010_000))
    }

    @Test func timeIsEquatableComparableAndHashesItsRawValue() {
        let time1 = Self.time(10_000)
        let time2 = Self.time(10_000)
        let time3 = Self.time(10_001)
        #expect(time1 == time2)
        #expect(time1 != time3)
        #expect(time1 < time3)
        #expect(!(time3 < time1))
        #expect(time1 < Time(.distantFuture))
        #expect(!(Time(.distantFuture) < time1))
        #expect(time1.hashValue == time1.dispatchTime.rawValue.hashValue)
        #expect(time3.hashValue == time3.dispatchTime.rawValue.hashValue)
        #expect(Set([time1, time2, time3]).count == 2)
    }

    @Test func timeCodesItsRawValue() throws {
        let time = Self.time(42)
        let encoded = try JSONEncoder().encode(Keyed(value: time))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":42}"#)
        #expect(try JSONDecoder().decode(Keyed<Time>.self, from: encoded).value == time)
    }

    // MARK: Stride

    @Test func strideToDispatchTimeIntervalIsNanoseconds() {
        #expect(Stride.seconds(2).timeInterval == .nanoseconds(2_000_000_000))
        #expect(Stride.milliseconds(2).timeInterval == .nanoseconds(2_000_000))
        #expect(Stride.microseconds(2).timeInterval == .nanoseconds(2_000))
        #expect(Stride.nanoseconds(2).timeInterval == .nanoseconds(2))
        #expect(Stride.nanoseconds(.max).timeInterval == .nanoseconds(.max))
    }

    @Test func strideFromDispatchTimeIntervalSaturates() {
        #expect(Stride(.seconds(2)).magnitude == 2_000_000_000)
        #expect(Stride(.milliseconds(2)).magnitude == 2_000_000)
        #expect(Stride(.microseconds(2)).magnitude == 2_000)
        #expect(Stride(.nanoseconds(2)).magnitude == 2)
        #expect(Stride(.seconds(-2)).magnitude == -2_000_000_000)
        #expect(Stride(.never).magnitude == .max)
        for interval: DispatchTimeInterval in [
            .nanoseconds(.max), .microseconds(.max), .milliseconds(.max), .seconds(.max),
        ] {
            #expect(Stride(interval).magnitude == .max)
        }
        for interval: DispatchTimeInterval in [
            .nanoseconds(.min), .microseconds(.min), .milliseconds(.min), .seconds(.min),
        ] {
            #expect(Stride(interval).magnitude == .min)
        }
    }

    @Test func strideFromNumbersCountsSeconds() {
        #expect(Stride.seconds(1.2).magnitude == 1_200_000_000)
        #expect(Stride.seconds(2).magnitude == 2_000_000_000)
        #expect(Stride.seconds(-0.5).magnitude == -500_000_000)
        #expect(Stride.milliseconds(2).magnitude == 2_000_000)
        #expect(Stride.microseconds(2).magnitude == 2_000)
        #expect(Stride.nanoseconds(2).magnitude == 2)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude == 9_223_372_035_854_776_320)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(-Double(Int.max)).magnitude == .min)
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.seconds(Int.min).magnitude == .min)
        #expect(Stride.milliseconds(.max).magnitude == .max)
        #expect(Stride.microseconds(.max).magnitude == .max)
        #expect(Stride.nanoseconds(.max).magnitude == .max)
        #expect((1.2 as Stride).magnitude == 1_200_000_000)
        #expect((2 as Stride).magnitude == 2_000_000_000)
        #expect(Stride(0.25).magnitude == 250_000_000)
        #expect(Stride(3).magnitude == 3_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: Int.max / 999_999_999) == nil)
        // Wider than `Int`: nil, not a trap.
        #expect(Stride(exactly: Int128(1) << 100) == nil)
        #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
        #expect(Stride.zero.magnitude == 0)
    }

    @Test func strideIsComparable() {
        #expect(Stride.nanoseconds(1) < .nanoseconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
        #expect(Stride.milliseconds(2) < .seconds(2))
    }

    @Test func strideMultipliesAsSeconds() {
        // Tiny strides multiply to less than a nanosecond.
        let tiny: [(Stride, Stride)] = [
            (.nanoseconds(0), .nanoseconds(61346)), (.nanoseconds(61346), .nanoseconds(0)),
            (.nanoseconds(18), .nanoseconds(1)), (.nanoseconds(18), .microseconds(1)),
            (.nanoseconds(1), .nanoseconds(18)), (.microseconds(1), .nanoseconds(18)),
            (.nanoseconds(15), .nanoseconds(2)), (.microseconds(-3), .nanoseconds(10)),
        ]
        for (lhs, rhs) in tiny {
            #expect((lhs * rhs).magnitude == 0)
            var product = lhs
            product *= rhs
            #expect(product.magnitude == 0)
        }
        #expect(Stride.seconds(2) * .seconds(3) == .seconds(6))
        #expect(Stride.seconds(-2) * .milliseconds(500) == .seconds(-1))
        #expect(Stride.seconds(-2) * .seconds(-3) == .seconds(6))
        #expect((Stride.seconds(1_000_000_000) * .seconds(1_000_000_000)).magnitude == .max)
        #expect((Stride.seconds(-1_000_000_000) * .seconds(1_000_000_000)).magnitude == .min)
        #expect(-Stride.seconds(2) == .seconds(-2))
    }

    @Test func strideAddsAndSubtractsSaturating() {
        #expect((Stride.nanoseconds(0) + .microseconds(2)).magnitude == 2000)
        #expect((Stride.nanoseconds(7) + .nanoseconds(-12)).magnitude == -5)
        #expect((Stride.nanoseconds(-12) + .nanoseconds(7)).magnitude == -5)
        #expect((Stride.nanoseconds(0) - .microseconds(2)).magnitude == -2000)
        #expect((Stride.nanoseconds(7) - .nanoseconds(-12)).magnitude == 19)
        #expect((Stride.nanoseconds(-12) - .nanoseconds(7)).magnitude == -19)
        var stride = Stride.nanoseconds(7)
        stride += .nanoseconds(12)
        #expect(stride.magnitude == 19)
        stride -= .nanoseconds(20)
        #expect(stride.magnitude == -1)
        #expect((Stride.nanoseconds(.max) + .nanoseconds(1)).magnitude == .max)
        #expect((Stride.nanoseconds(.min) + .nanoseconds(-1)).magnitude == .min)
        #expect((Stride.nanoseconds(.min) - .nanoseconds(1)).magnitude == .min)
        #expect((Stride.nanoseconds(.max) - .nanoseconds(-1)).magnitude == .max)
    }

    @Test func strideCodesNanosecondsUnderAPrivateKey() throws {
        let stride = Stride.nanoseconds(419_872)
        let encoded = try JSONEncoder().encode(Keyed(value: stride))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
        #expect(try JSONDecoder().decode(Keyed<Stride>.self, from: encoded).value == stride)
        #expect(Set([stride, .nanoseconds(419_872), .nanoseconds(1)]).count == 2)
    }

    // MARK: Scheduler

    @Test func clockAndOptions() {
        let queue = DispatchQueue(label: "clock")
        #expect(queue.minimumTolerance == .nanoseconds(0))
        let before = DispatchTime.now()
        let now = queue.now
        let after = DispatchTime.now()
        #expect(before <= now.dispatchTime && now.dispatchTime <= after)
        let options = DispatchQueue.SchedulerOptions()
        #expect(options.qos == .unspecified)
        #expect(options.flags == [])
        #expect(options.group == nil)
        let group = DispatchGroup()
        let custom = DispatchQueue.SchedulerOptions(qos: .userInitiated, flags: .barrier, group: group)
        #expect(custom.qos == .userInitiated && custom.flags == .barrier && custom.group === group)
    }

    /// A queue that marks itself, so actions can check where they run.
    private final class MarkedQueue: @unchecked Sendable {
        static let key = DispatchSpecificKey<String>()
        let queue: DispatchQueue
        let label: String
        init(_ label: String) {
            self.label = label
            queue = DispatchQueue(label: label)
            queue.setSpecific(key: Self.key, value: label)
        }
        var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == label }
    }

    /// A record written by actions on other threads.
    private final class Log: @unchecked Sendable {
        let lock = TestLock<[String]>([])
        func add(_ entry: String) { lock.withLock { $0.append(entry) } }
        var entries: [String] { lock.withLock { $0 } }
    }

    @Test func scheduleRunsAsynchronouslyOnTheQueue() {
        let marked = MarkedQueue("schedule-now")
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        // Hold the queue so the action cannot run before `schedule` returns.
        marked.queue.sync {
            marked.queue.schedule {
                log.add(marked.isCurrent ? "on queue" : "elsewhere")
                done.signal()
            }
            log.add("returned")
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(log.entries == ["returned", "on queue"])

        let group = DispatchGroup()
        marked.queue.schedule(options: .init(qos: .userInteractive, group: group)) {
            log.add(marked.isCurrent ? "grouped on queue" : "elsewhere")
        }
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(log.entries.last == "grouped on queue")
    }

    @Test func scheduleAfterWaitsForTheDate() {
        let marked = MarkedQueue("schedule-after")
        let done = DispatchSemaphore(value: 0)
        let ranAt = TestLock<Time?>(nil)
        let date = marked.queue.now.advanced(by: .milliseconds(50))
        marked.queue.schedule(after: date) {
            ranAt.withLock { $0 = marked.isCurrent ? marked.queue.now : nil }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let time = ranAt.withLock { $0 }
        #expect(time != nil, "ran on the queue")
        if let time { #expect(time >= date) }

        let group = DispatchGroup()
        marked.queue.schedule(
            after: marked.queue.now.advanced(by: .milliseconds(10)), tolerance: .zero,
            options: .init(group: group)
        ) {}
        #expect(group.wait(timeout: .now() + 5) == .success)
    }

    @Test func repeatingActionRunsUntilCancelled() {
        let marked = MarkedQueue("repeating")
        let ticks = Atomic<Int>(0)
        let offQueue = Atomic<Int>(0)
        let third = DispatchSemaphore(value: 0)
        let start = marked.queue.now.advanced(by: .milliseconds(20))
        let token = marked.queue.schedule(after: start, interval: .milliseconds(10)) {
            if !marked.isCurrent { offQueue.add(1, ordering: .relaxed) }
            if ticks.add(1, ordering: .relaxed).newValue == 3 { third.signal() }
        }
        #expect(token is AnyCancellable)
        #expect(third.wait(timeout: .now() + 5) == .success)
        token.cancel()
        // Once the queue has drained, the timer's handler cannot run again.
        marked.queue.sync {}
        let afterCancel = ticks.load(ordering: .relaxed)
        usleep(60_000)
        marked.queue.sync {}
        #expect(ticks.load(ordering: .relaxed) == afterCancel)
        #expect(afterCancel >= 3)
        #expect(offQueue.load(ordering: .relaxed) == 0)
    }

    @Test func releasingTheRepeatingTokenStopsTheTimer() {
        let marked = MarkedQueue("repeating-released")
        let ticks = Atomic<Int>(0)
        let first = DispatchSemaphore(value: 0)
        do {
            let token = marked.queue.schedule(after: marked.queue.now, interval: .milliseconds(5)) {
                if ticks.add(1, ordering: .relaxed).newValue == 1 { first.signal() }
            }
            #expect(first.wait(timeout: .now() + 5) == .success)
            withExtendedLifetime(token) {}
        }
        marked.queue.sync {}
        let afterRelease = ticks.load(ordering: .relaxed)
        usleep(40_000)
        marked.queue.sync {}
        #expect(ticks.load(ordering: .relaxed) == afterRelease)
    }
}
