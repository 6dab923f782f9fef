// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Synchronization
import Testing

// `OperationQueue` as a Combine scheduler: the time and stride types (the same laws as `RunLoop`'s,
// on types of their own), and how actions reach the queue: what Combine adds to it, when the
// operations become ready, and that a repeating action stops when cancelled.
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

@Suite(.serialized) struct OperationQueueSchedulerTests {
    typealias Time = OperationQueue.SchedulerTimeType
    typealias Stride = OperationQueue.SchedulerTimeType.Stride

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

    /// A queue that records the operations added to it, and marks the actions it runs.
    private final class RecordingQueue: OperationQueue, @unchecked Sendable {
        private let log = TestLock<[String]>([])
        private let addedOperations = TestLock<[Operation]>([])

        override func addOperation(_ op: Operation) {
            log.withLock { $0.append("addOperation") }
            addedOperations.withLock { $0.append(op) }
            super.addOperation(op)
        }

        override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
            log.withLock { $0.append("addOperations") }
            super.addOperations(ops, waitUntilFinished: wait)
        }

        var history: [String] { log.withLock { $0 } }
        var added: [Operation] { addedOperations.withLock { $0 } }
        var isCurrent: Bool { OperationQueue.current === self }
    }

    /// Whether every operation on the queue finishes within `seconds` (the queue's own wait cannot
    /// time out).
    private static func drains(_ queue: OperationQueue, within seconds: Double = RealTime.patience) async -> Bool {
        await RealTime.eventually(within: seconds) { queue.operationCount == 0 }
    }

    @Test func clockAndTolerance() {
        let queue = OperationQueue()
        let before = Date()
        let now = queue.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(queue.minimumTolerance == Stride(0))
    }

    @Test func scheduleAddsOneBlockOperation() async {
        let queue = RecordingQueue()
        let runs = Atomic<Int>(0)
        let offQueue = Atomic<Int>(0)
        queue.schedule {
            if !queue.isCurrent { offQueue.add(1, ordering: .relaxed) }
            runs.add(1, ordering: .relaxed)
        }
        #expect(queue.history == ["addOperation"])
        let operation = queue.added.first
        #expect(operation is BlockOperation)
        #expect(await Self.drains(queue))
        #expect(runs.load(ordering: .relaxed) == 1)
        #expect(offQueue.load(ordering: .relaxed) == 0)
        // It is a plain block operation: running it again runs the action again (as Combine's does).
        operation?.main()
        #expect(runs.load(ordering: .relaxed) == 2)
    }

    @Test func scheduleAfterAddsAnUnreadyOperationAtOnce() async {
        let queue = RecordingQueue()
        let ranAt = TestLock<Date?>(nil)
        let onQueue = Atomic<Bool>(false)
        let date = queue.now.advanced(by: .milliseconds(200))
        queue.schedule(after: date) {
            onQueue.store(queue.isCurrent, ordering: .relaxed)
            ranAt.withLock { $0 = Date() }
        }
        #expect(queue.history == ["addOperation"])
        guard let operation = queue.added.first else { return }
        #expect(!(operation is BlockOperation))
        #expect(!operation.isReady)
        #expect(!operation.isFinished)
        #expect(!operation.isCancelled)
        #expect(!operation.isAsynchronous)
        #expect(operation is any Cancellable)
        #expect(queue.operationCount == 1)

        #expect(await Self.drains(queue))
        let time = ranAt.withLock { $0 }
        #expect(time != nil)
        if let time { #expect(time.timeIntervalSince(date.date) > -0.005, "ran at its date or later") }
        let ranOnQueue = onQueue.load(ordering: .relaxed)
        #expect(ranOnQueue)
        #expect(operation.isFinished)
        // Unlike a block operation, it runs its action once.
        operation.main()
        #expect(queue.history == ["addOperation"])
        #expect(ranAt.withLock { $0 } == time)
    }

    @Test func cancellingTheDelayedOperationSkipsItsAction() async throws {
        let queue = RecordingQueue()
        let runs = Atomic<Int>(0)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(200))) { runs.add(1, ordering: .relaxed) }
        let operation = try #require(queue.added.first as? any Cancellable)
        operation.cancel()
        // The queue finishes a cancelled operation without waiting for its date.
        #expect(await Self.drains(queue, within: 0.15))
        try await Task.sleep(for: .seconds(RealTime.grace))
        #expect(runs.load(ordering: .relaxed) == 0)
    }

    @Test func aPastDateRunsAtOnce() async {
        let queue = OperationQueue()
        let runs = Atomic<Int>(0)
        queue.schedule(after: queue.now.advanced(by: .seconds(-10))) { runs.add(1, ordering: .relaxed) }
        #expect(await RealTime.eventually(within: 1) { runs.load(ordering: .relaxed) == 1 })
    }

    @Test func aSuspendedQueueHoldsDueActions() async throws {
        let queue = OperationQueue()
        queue.isSuspended = true
        let runs = Atomic<Int>(0)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(20))) { runs.add(1, ordering: .relaxed) }
        try await Task.sleep(for: .milliseconds(150))
        #expect(runs.load(ordering: .relaxed) == 0)
        queue.isSuspended = false
        #expect(await RealTime.eventually { runs.load(ordering: .relaxed) == 1 })
    }

    @Test func repeatingActionAddsEachFireAheadAndStopsWhenCancelledInside() async throws {
        let queue = RecordingQueue()
        let ticks = TestLock<[Date]>([])
        let offQueue = Atomic<Int>(0)
        let token = TestLock<AnyCancellable?>(nil)
        let interval = 0.05
        let start = queue.now.advanced(by: .seconds(interval))
        let cancellable = queue.schedule(after: start, interval: .seconds(interval)) {
            if !queue.isCurrent { offQueue.add(1, ordering: .relaxed) }
            if ticks.withLock({
                $0.append(Date()); return $0.count
            }) == 5 {
                token.withLock { $0 }?.cancel()
            }
        }
        #expect(cancellable is AnyCancellable)
        token.withLock { $0 = cancellable as? AnyCancellable }
        #expect(queue.history == ["addOperation"])
        let first = queue.added.first
        #expect(first.map { !$0.isReady } == true)

        #expect(await RealTime.eventually { ticks.withLock { $0.count } >= 5 })
        #expect(await Self.drains(queue))
        try await Task.sleep(for: .seconds(RealTime.grace))
        let all = ticks.withLock { $0 }
        #expect(all.count == 5)
        // Each fire added the next before running the action: the sixth was added, then cancelled.
        #expect(queue.history.count == 6)
        #expect(queue.added.last?.isCancelled == true)
        #expect(offQueue.load(ordering: .relaxed) == 0)
        if all.count == 5 {
            #expect(all[0].timeIntervalSince(start.date) > -0.005)
            let average = all[4].timeIntervalSince(all[0]) / 4
            #expect(average > interval * 0.5, "average interval \(average)")
            #expect(average < interval * 5, "average interval \(average)")
        }
        first?.main()
        #expect(ticks.withLock { $0.count } == 5)
        withExtendedLifetime(cancellable) {}
    }

    @Test func repeatingActionStopsWhenCancelledFromAnotherThread() async throws {
        let queue = OperationQueue()
        let ticks = Atomic<Int>(0)
        let token = queue.schedule(after: queue.now, interval: .milliseconds(20)) {
            ticks.add(1, ordering: .relaxed)
        }
        #expect(await RealTime.eventually { ticks.load(ordering: .relaxed) >= 3 })
        token.cancel()
        #expect(await Self.drains(queue))
        let afterCancel = ticks.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(RealTime.grace))
        #expect(ticks.load(ordering: .relaxed) == afterCancel)
        #expect(queue.operationCount == 0)
    }

    @Test func releasingTheRepeatingTokenStopsIt() async throws {
        let queue = OperationQueue()
        let ticks = Atomic<Int>(0)
        do {
            let token = queue.schedule(after: queue.now, interval: .milliseconds(10)) {
                ticks.add(1, ordering: .relaxed)
            }
            #expect(await RealTime.eventually { ticks.load(ordering: .relaxed) >= 1 })
            withExtendedLifetime(token) {}
        }
        #expect(await Self.drains(queue))
        let afterRelease = ticks.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(RealTime.grace))
        #expect(ticks.load(ordering: .relaxed) == afterRelease)
    }
}

extension OperationQueue.SchedulerTimeType: DateBackedSchedulerTime {}
extension OperationQueue.SchedulerTimeType.Stride: SecondsSchedulerStride {}
