// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// An operation queue as a Combine scheduler: every action runs as an operation on the queue, so the
// queue's concurrency limit, suspension and `OperationQueue.current` apply to it. A delayed action is
// an operation added at once that stays unready until its date (a Dispatch timer makes it ready); a
// repeating action is a chain of such operations, each adding the next before it runs the action.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue: an instant on the wall clock.
    public struct SchedulerTimeType: _DateSchedulerTime {
        /// The date this instant stands for.
        public var date: Date

        /// Creates an operation queue time type instance from a date.
        public init(_ date: Date) { self.date = date }

        /// A time interval for an operation queue, in seconds.
        public struct Stride: _TimeIntervalSchedulerStride {
            /// The value of this time interval in seconds; it keeps its sign.
            public var magnitude: TimeInterval

            /// Creates a stride of the given number of seconds.
            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        }
    }

    /// Options that affect the operation of the operation queue scheduler: none.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// The minimum tolerance allowed by the scheduler: none.
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Adds the action to the queue as a `BlockOperation`.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        addOperation(BlockOperation { work.run() })
    }

    /// Adds the action to the queue at once, as an operation that becomes ready at `date`; until then
    /// it holds no thread, and `waitUntilAllOperationsAreFinished()` waits for it.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayedOperation(action)
        addOperation(operation)
        // Only once the queue holds it: a readiness change before then could go unseen by the queue.
        operation.arm(at: date.date, tolerance: tolerance.timeInterval)
    }

    /// Runs the action on the queue at `date` and every `interval` after, each time as an operation
    /// added one interval ahead; cancelling (or releasing) the returned `AnyCancellable` cancels the
    /// waiting operation and adds no more.
    ///
    /// Fires missed while the queue was busy or suspended are skipped, not made up, as `Timer`'s are.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repetition = RepeatingOperations(
            queue: self, interval: max(interval.timeInterval, minimumRepeatInterval),
            tolerance: tolerance.timeInterval, action: action)
        repetition.enqueue(at: date.date)
        return AnyCancellable { repetition.cancel() }
    }
}

/// An operation that is not ready until its date, then runs its body once.
///
/// The queue learns of the change through the `isReady` key-value notification, as it would on
/// Darwin. Cancelling makes it ready at once, so the queue can finish it without running the body
/// (and without waiting for the date). Calling `main()` again after it ran does nothing.
final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
    private let lock = NSLock()
    /// The action; taken when it runs, dropped when cancelled.
    private var body: (() -> Void)?
    private var isDue = false
    /// The timer that will make the operation due, while it is armed.
    private var timer: (any DispatchSourceTimer)?

    init(_ body: @escaping () -> Void) {
        self.body = body
        super.init()
    }

    override var isReady: Bool {
        lock.lock()
        let due = isDue
        lock.unlock()
        return (due || isCancelled) && super.isReady
    }

    /// Makes the operation ready at `date` (at once if it has passed), within `tolerance` seconds.
    func arm(at date: Date, tolerance: TimeInterval) {
        let delay = date.timeIntervalSinceNow
        guard delay > 0 else {
            becomeDue()
            return
        }
        lock.lock()
        defer { lock.unlock() }
        guard body != nil, !isDue else { return }
        // Created, scheduled and resumed under the lock: Dispatch traps on releasing a timer that was
        // never resumed, so one must exist only once it is certain to run or be cancelled.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak self] in self?.becomeDue() }
        // Past a billion seconds a date is as good as never (and beyond Dispatch's nanosecond range).
        let deadline: DispatchTime = delay < 1e9 ? .now() + delay : .distantFuture
        let leeway = tolerance > 0 ? Int(min(tolerance, 3_600) * 1e9) : 0
        timer.schedule(deadline: deadline, leeway: .nanoseconds(leeway))
        timer.resume()
        self.timer = timer
    }

    private func becomeDue() {
        lock.lock()
        guard !isDue else {
            lock.unlock()
            return
        }
        isDue = true
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        willChangeValue(forKey: "isReady")
        didChangeValue(forKey: "isReady")
    }

    override func main() {
        lock.lock()
        let body = self.body
        self.body = nil
        lock.unlock()
        guard !isCancelled else { return }
        body?()
    }

    override func cancel() {
        lock.lock()
        let timer = self.timer
        self.timer = nil
        let body = self.body
        self.body = nil
        lock.unlock()
        timer?.cancel()
        withExtendedLifetime(body) {}
        super.cancel()
    }
}

/// One repeating schedule on an operation queue: the operation waiting for the next fire, and the
/// action until the schedule is cancelled.
///
/// Each fire adds its successor before running the action, so that the next fire is already on
/// the queue while the action runs (an action that takes longer than the interval delays nothing
/// on a concurrent queue) and a cancel from inside the action finds it.
final class RepeatingOperations: @unchecked Sendable {
    private let lock = NSLock()
    private let queue: OperationQueue
    private let interval: TimeInterval
    private let tolerance: TimeInterval
    /// The action; nil once cancelled.
    private var action: (() -> Void)?
    private var pending: DelayedOperation?

    init(queue: OperationQueue, interval: TimeInterval, tolerance: TimeInterval, action: @escaping () -> Void) {
        self.queue = queue
        self.interval = interval
        self.tolerance = tolerance
        self.action = action
    }

    /// Adds the operation for the fire at `date`, unless cancelled.
    func enqueue(at date: Date) {
        let operation = DelayedOperation { [self] in fire(scheduledFor: date) }
        lock.lock()
        guard action != nil else {
            lock.unlock()
            return
        }
        pending = operation
        lock.unlock()
        // A cancel from here on cancels `operation`, which then finishes without firing.
        queue.addOperation(operation)
        operation.arm(at: date, tolerance: tolerance)
    }

    private func fire(scheduledFor date: Date) {
        lock.lock()
        let action = self.action
        lock.unlock()
        guard let action else { return }
        enqueue(at: nextDate(after: date))
        action()
    }

    /// One interval after `date`, or the first whole interval after now if the queue fell behind.
    private func nextDate(after date: Date) -> Date {
        let next = date.addingTimeInterval(interval)
        let behind = Date().timeIntervalSince(next)
        guard behind > 0 else { return next }
        return next.addingTimeInterval((behind / interval).rounded(.up) * interval)
    }

    func cancel() {
        lock.lock()
        let action = self.action
        self.action = nil
        let pending = self.pending
        self.pending = nil
        lock.unlock()
        pending?.cancel()
        // Released here, outside the lock: the action's captures may have a `deinit` that re-enters.
        withExtendedLifetime(action) {}
    }
}
