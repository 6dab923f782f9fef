// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Synchronization
import Testing

// `RunLoop` as a Combine scheduler: its time and stride types (facts from Combine's observable
// behaviour, via OpenCombine's suite; shared with `OperationQueue`'s, which must be the same API on a
// type of its own), and the three ways it runs actions, on a real run loop on a thread of its own.
// Every wait is bounded; timing bounds are generous (two busy cores).
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

@Suite(.serialized) struct RunLoopSchedulerTests {
    typealias Time = RunLoop.SchedulerTimeType
    typealias Stride = RunLoop.SchedulerTimeType.Stride

    // MARK: Time and stride

    @Test func timeDistanceIsTheIntervalBetweenTheDates() { DateSchedulerLaws.distance(Time.self) }
    @Test func timeAdvancesByAnyStride() { DateSchedulerLaws.advanced(Time.self) }
    @Test func timeComparesAndHashesItsDate() { DateSchedulerLaws.equatableAndHashable(Time.self) }
    @Test func timeCodesItsDate() throws { try DateSchedulerLaws.timeCodable(Time.self) }
    @Test func strideUnitsAreSeconds() { DateSchedulerLaws.strideUnits(Stride.self) }
    @Test func strideFromNumbersCountsSeconds() { DateSchedulerLaws.strideFromNumbers(Stride.self) }
    @Test func strideArithmeticIsFloatingPoint() { DateSchedulerLaws.strideArithmetic(Stride.self) }
    @Test func strideCodesItsMagnitude() throws { try DateSchedulerLaws.strideCodable(Stride.self) }

    // MARK: Scheduler

    @Test func clockAndTolerance() {
        let runLoop = RunLoop.current
        let before = Date()
        let now = runLoop.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(runLoop.minimumTolerance == Stride(0))
    }

    @Test func scheduleRunsOnTheLoopThreadInOrder() async {
        let loop = RunLoopThread()
        let log = TestLock<[Int]>([])
        let offThread = Atomic<Int>(0)
        for index in 0..<50 {
            loop.runLoop.schedule {
                if !loop.isCurrent { offThread.add(1, ordering: .relaxed) }
                log.withLock { $0.append(index) }
            }
        }
        #expect(await RealTime.eventually { log.withLock { $0.count } == 50 })
        #expect(log.withLock { $0 } == Array(0..<50))
        #expect(offThread.load(ordering: .relaxed) == 0)
        await loop.stop()
    }

    @Test func scheduleWakesASleepingLoop() async throws {
        // Slices of 20 s: without a wake-up, an action would wait for the slice to end.
        let loop = RunLoopThread(slice: 20)
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(50))
            let ranAt = TestLock<Date?>(nil)
            let scheduledAt = Date()
            loop.runLoop.schedule { ranAt.withLock { $0 = Date() } }
            #expect(await RealTime.eventually { ranAt.withLock { $0 } != nil })
            if let ranAt = ranAt.withLock({ $0 }) {
                #expect(ranAt.timeIntervalSince(scheduledAt) < 2, "the loop woke for the action")
            }
        }
        await loop.stop()
    }

    @Test func scheduleAfterWaitsForTheDate() async {
        let loop = RunLoopThread()
        let ranAt = TestLock<(Date, Bool)?>(nil)
        let date = loop.runLoop.now.advanced(by: .milliseconds(100))
        loop.runLoop.schedule(after: date, tolerance: .milliseconds(10)) {
            ranAt.withLock { $0 = (Date(), loop.isCurrent) }
        }
        #expect(await RealTime.eventually { ranAt.withLock { $0 } != nil })
        if let (time, onLoop) = ranAt.withLock({ $0 }) {
            // Timers fire at their date or later; a little slack for the clocks' conversions.
            #expect(time.timeIntervalSince(date.date) > -0.005)
            #expect(onLoop)
        }
        await loop.stop()
    }

    @Test func repeatingActionRunsAtTheIntervalUntilCancelled() async throws {
        let loop = RunLoopThread()
        let ticks = TestLock<[Date]>([])
        let offThread = Atomic<Int>(0)
        let interval = 0.05
        let start = loop.runLoop.now.advanced(by: .seconds(interval))
        let token = loop.runLoop.schedule(after: start, interval: .seconds(interval)) {
            if !loop.isCurrent { offThread.add(1, ordering: .relaxed) }
            ticks.withLock { $0.append(Date()) }
        }
        #expect(token is AnyCancellable)
        #expect(await RealTime.eventually { ticks.withLock { $0.count } >= 6 })
        token.cancel()
        // A tick already running when `cancel()` returned finishes; none starts after.
        await loop.sync()
        let afterCancel = ticks.withLock { $0 }
        try await Task.sleep(for: .seconds(RealTime.grace))
        await loop.sync()
        #expect(ticks.withLock { $0.count } == afterCancel.count)
        #expect(offThread.load(ordering: .relaxed) == 0)
        if afterCancel.count >= 2 {
            let first = afterCancel[0]
            #expect(first.timeIntervalSince(start.date) > -0.005)
            let average = afterCancel.last!.timeIntervalSince(first) / Double(afterCancel.count - 1)
            #expect(average > interval * 0.5, "average interval \(average)")
            #expect(average < interval * 5, "average interval \(average)")
        }
        await loop.stop()
    }

    @Test func cancellingFromInsideTheActionStopsAtOnce() async throws {
        let loop = RunLoopThread()
        let ticks = Atomic<Int>(0)
        let token = TestLock<AnyCancellable?>(nil)
        let start = loop.runLoop.now.advanced(by: .milliseconds(50))
        let cancellable = loop.runLoop.schedule(after: start, interval: .milliseconds(20)) {
            if ticks.add(1, ordering: .relaxed).newValue == 3 {
                token.withLock { $0 }?.cancel()
            }
        }
        token.withLock { $0 = AnyCancellable(cancellable) }
        #expect(await RealTime.eventually { ticks.load(ordering: .relaxed) >= 3 })
        try await Task.sleep(for: .seconds(RealTime.grace))
        await loop.sync()
        #expect(ticks.load(ordering: .relaxed) == 3)
        await loop.stop()
    }

    @Test func releasingTheRepeatingTokenStopsTheTimer() async throws {
        let loop = RunLoopThread()
        let ticks = Atomic<Int>(0)
        do {
            let token = loop.runLoop.schedule(after: loop.runLoop.now, interval: .milliseconds(10)) {
                ticks.add(1, ordering: .relaxed)
            }
            #expect(await RealTime.eventually { ticks.load(ordering: .relaxed) >= 1 })
            withExtendedLifetime(token) {}
        }
        await loop.sync()
        let afterRelease = ticks.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(RealTime.grace))
        await loop.sync()
        #expect(ticks.load(ordering: .relaxed) == afterRelease)
        await loop.stop()
    }
}

// MARK: - Shared by the Foundation scheduler tests

/// How the real-time tests wait: generously, and always bounded.
enum RealTime {
    /// How long a test waits for something that should happen.
    static let patience = 5.0
    /// How long a test waits for something that must not happen before it concludes that it did not.
    static let grace = 0.3

    /// Polls `condition` every 5 ms: true once it holds, false if `seconds` pass first.
    static func eventually(within seconds: Double = patience, _ condition: () -> Bool) async -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// A thread of its own running a run loop in the default mode, until `stop()`.
///
/// A timer set for the distant future keeps the loop from running out of inputs. The loop runs in
/// slices of `slice` seconds; `stop()` goes through the scheduler under test, which wakes the loop.
final class RunLoopThread: @unchecked Sendable {
    /// Set on the loop's thread before `init` returns; read-only after.
    private(set) var runLoop: RunLoop!
    private var thread: Thread?
    /// Touched only on the loop's thread.
    private var isStopped = false
    private var keepAlive: Timer?
    private let hasEnded = Atomic<Bool>(false)

    init(slice: TimeInterval = 0.1) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let runLoop = RunLoop.current
            let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(keepAlive, forMode: .default)
            self.runLoop = runLoop
            self.keepAlive = keepAlive
            started.signal()
            while !isStopped {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: slice))
            }
            hasEnded.store(true, ordering: .releasing)
        }
        self.thread = thread
        thread.start()
        started.wait()
    }

    /// Whether the caller runs on the loop's thread.
    var isCurrent: Bool { Thread.current === thread }

    /// Returns once the loop has run an action scheduled now: whatever it was running has finished.
    func sync() async {
        let done = Atomic<Bool>(false)
        runLoop.schedule { done.store(true, ordering: .releasing) }
        #expect(await RealTime.eventually { done.load(ordering: .acquiring) })
    }

    /// Ends the loop and its thread.
    func stop() async {
        runLoop.schedule { [self] in
            isStopped = true
            keepAlive?.invalidate()
        }
        #expect(await RealTime.eventually { hasEnded.load(ordering: .acquiring) })
    }
}

/// Facts that hold for `RunLoop`'s and `OperationQueue`'s time types alike, written once against
/// the API both must have (the two protocols below, which each type conforms to in its own test file:
/// were the two one type, those conformances would not compile).
enum DateSchedulerLaws {
    static func distance<Time: DateBackedSchedulerTime>(_: Time.Type) {
        let time1 = Time(Date(timeIntervalSince1970: 10_000))
        let time2 = Time(Date(timeIntervalSince1970: 10_431))
        let distantFuture = Time(.distantFuture)
        let notSoDistantFuture = Time(Date.distantFuture - 1024)

        #expect(time1.distance(to: time2).timeInterval == 431)
        #expect(time2.distance(to: time1).timeInterval == -431)
        #expect(time1.distance(to: distantFuture).timeInterval == 64_092_201_200)
        #expect(distantFuture.distance(to: time1).timeInterval == -64_092_201_200)
        #expect(time2.distance(to: distantFuture).timeInterval == 64_092_200_769)
        #expect(distantFuture.distance(to: time2).timeInterval == -64_092_200_769)
        #expect(time1.distance(to: notSoDistantFuture).timeInterval == 64_092_200_176)
        #expect(notSoDistantFuture.distance(to: time1).timeInterval == -64_092_200_176)
        #expect(time2.distance(to: notSoDistantFuture).timeInterval == 64_092_199_745)
        #expect(notSoDistantFuture.distance(to: time2).timeInterval == -64_092_199_745)
        #expect(distantFuture.distance(to: distantFuture).timeInterval == 0)
        #expect(notSoDistantFuture.distance(to: notSoDistantFuture).timeInterval == 0)
    }

    static func advanced<Time: DateBackedSchedulerTime>(_: Time.Type) {
        let time = Time(Date(timeIntervalSinceReferenceDate: 10_000))
        let beginningOfTime = Time(Date(timeIntervalSinceReferenceDate: 1))

        #expect(time.advanced(by: .seconds(431)) == Time(Date(timeIntervalSinceReferenceDate: 10_431)))
        #expect(time.advanced(by: .seconds(-220)) == Time(Date(timeIntervalSinceReferenceDate: 9_780)))
        // No clamping: a date holds any double.
        #expect(time.advanced(by: .nanoseconds(.max)).date == Date(timeIntervalSinceReferenceDate: 9223382036.854776))
        #expect(time.advanced(by: .seconds(.max)).date == Date(timeIntervalSinceReferenceDate: 9.223372036854786E+18))
        #expect(
            beginningOfTime.advanced(by: .nanoseconds(-1000)).date == Date(timeIntervalSinceReferenceDate: 0.999999))
        #expect(beginningOfTime.advanced(by: .seconds(-1000)).date == Date(timeIntervalSinceReferenceDate: -999))
        #expect(time.advanced(by: time.distance(to: beginningOfTime)) == beginningOfTime)
    }

    static func equatableAndHashable<Time: DateBackedSchedulerTime>(_: Time.Type) {
        let time1 = Time(Date(timeIntervalSinceReferenceDate: 10_000))
        let time2 = Time(Date(timeIntervalSinceReferenceDate: 10_000))
        let time3 = Time(Date(timeIntervalSinceReferenceDate: 10_001))
        #expect(time1 == time2)
        #expect(time2 == time1)
        #expect(time1 != time3)
        #expect(time1 < time3)
        #expect(!(time3 < time1))
        #expect(!(time1 < time2))
        #expect(Time(.distantFuture) == Time(.distantFuture))
        #expect(time1.hashValue == time2.hashValue)
        #expect(Set([time1, time2, time3]).count == 2)
    }

    static func timeCodable<Time: DateBackedSchedulerTime>(_: Time.Type) throws {
        let time = Time(Date(timeIntervalSinceReferenceDate: 1024.75))
        let encoded = try JSONEncoder().encode(time)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"date":1024.75}"#)
        #expect(try JSONDecoder().decode(Time.self, from: encoded) == time)
    }

    static func strideUnits<Stride: SecondsSchedulerStride>(_: Stride.Type) {
        #expect(Stride.seconds(2).timeInterval == 2)
        #expect(Stride.seconds(2.2).timeInterval == 2.2)
        #expect(Stride.seconds(Double.infinity).timeInterval == .infinity)
        #expect(Stride.milliseconds(2).timeInterval == 0.002)
        #expect(Stride.microseconds(2).timeInterval == 2E-06)
        #expect(Stride.nanoseconds(2).timeInterval == 2E-09)
        #expect(Stride.seconds(Int.max).timeInterval == 9.223372036854776E+18)
        #expect(Stride.milliseconds(.max).timeInterval == 9.223372036854776E+15)
        #expect(Stride.microseconds(.max).timeInterval == 9223372036854.775)
        #expect(Stride.nanoseconds(.max).timeInterval == 9223372036.854776)
        #expect(Stride.seconds(-3).magnitude == -3, "the magnitude keeps its sign")
    }

    static func strideFromNumbers<Stride: SecondsSchedulerStride>(_: Stride.Type) {
        #expect(Stride(2).magnitude == 2)
        #expect(Stride(2.2).magnitude == 2.2)
        #expect(Stride(.infinity).magnitude == .infinity)
        #expect(Stride(2E-09).magnitude == 2E-09)
        #expect(Stride(9.223372036854776E+18).magnitude == 9.223372036854776E+18)
        #expect((1.2 as Stride).magnitude == 1.2)
        #expect((2 as Stride).magnitude == 2)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: 871 as UInt64)?.magnitude == 871)
        #expect(Stride.zero.magnitude == 0)
        #expect(-Stride(2) == Stride(-2))
    }

    static func strideArithmetic<Stride: SecondsSchedulerStride>(_: Stride.Type) {
        #expect(Stride.nanoseconds(1) < .nanoseconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
        #expect(Stride.milliseconds(2) < .seconds(2))

        let products: [(Stride, Stride, TimeInterval)] = [
            (.nanoseconds(0), .nanoseconds(61346), 0), (.nanoseconds(61346), .nanoseconds(0), 0),
            (.nanoseconds(18), .nanoseconds(1), 1.8E-17), (.nanoseconds(18), .microseconds(1), 1.8E-14),
            (.nanoseconds(1), .nanoseconds(18), 1.8E-17), (.microseconds(1), .nanoseconds(18), 1.8E-14),
            (.nanoseconds(15), .nanoseconds(2), 3E-17), (.microseconds(-3), .nanoseconds(10), -3E-14),
        ]
        for (lhs, rhs, product) in products {
            #expect((lhs * rhs).magnitude == product)
            var inPlace = lhs
            inPlace *= rhs
            #expect(inPlace.magnitude == product)
        }

        let sums: [(Stride, Stride, TimeInterval)] = [
            (.nanoseconds(0), .microseconds(2), 2E-06), (.nanoseconds(2), .microseconds(0), 2E-09),
            (.nanoseconds(7), .nanoseconds(12), 1.8999999999999998E-08),
            (.nanoseconds(12), .nanoseconds(7), 1.8999999999999998E-08),
            (.nanoseconds(7), .nanoseconds(-12), -5E-09), (.nanoseconds(-12), .nanoseconds(7), -5E-09),
            (.milliseconds(-12), .seconds(7), 6.988), (.seconds(-12), .milliseconds(7), -11.993),
        ]
        for (lhs, rhs, sum) in sums {
            #expect((lhs + rhs).magnitude == sum)
            var inPlace = lhs
            inPlace += rhs
            #expect(inPlace.magnitude == sum)
        }

        let differences: [(Stride, Stride, TimeInterval)] = [
            (.nanoseconds(0), .microseconds(2), -2E-06), (.nanoseconds(2), .microseconds(0), 2E-09),
            (.nanoseconds(7), .nanoseconds(12), -5E-09), (.nanoseconds(12), .nanoseconds(7), 5E-09),
            (.nanoseconds(7), .nanoseconds(-12), 1.8999999999999998E-08),
            (.nanoseconds(-12), .nanoseconds(7), -1.8999999999999998E-08),
            (.seconds(-12), .milliseconds(7), -12.007), (.milliseconds(-12), .seconds(7), -7.012),
        ]
        for (lhs, rhs, difference) in differences {
            #expect((lhs - rhs).magnitude == difference)
            var inPlace = lhs
            inPlace -= rhs
            #expect(inPlace.magnitude == difference)
        }
    }

    static func strideCodable<Stride: SecondsSchedulerStride>(_: Stride.Type) throws {
        let stride = Stride.seconds(1024.5)
        let encoded = try JSONEncoder().encode(stride)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"magnitude":1024.5}"#)
        #expect(try JSONDecoder().decode(Stride.self, from: encoded) == stride)
    }
}

/// The API Combine gives `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType`.
protocol DateBackedSchedulerTime: Strideable, Codable, Hashable where Stride: SecondsSchedulerStride {
    init(_ date: Date)
    var date: Date { get }
}

/// The API Combine gives their `Stride` types.
protocol SecondsSchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral, Codable
where Magnitude == TimeInterval {
    init(_ timeInterval: TimeInterval)
    var timeInterval: TimeInterval { get }
}

extension RunLoop.SchedulerTimeType: DateBackedSchedulerTime {}
extension RunLoop.SchedulerTimeType.Stride: SecondsSchedulerStride {}
