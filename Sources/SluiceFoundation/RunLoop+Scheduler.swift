// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// A run loop as a Combine scheduler: actions run on the run loop's thread, in its default mode.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: an instant on the wall clock.
    public struct SchedulerTimeType: _DateSchedulerTime {
        /// The date this instant stands for.
        public var date: Date

        /// Creates a run loop time type instance from a date.
        public init(_ date: Date) { self.date = date }

        /// A time interval for a run loop, in seconds.
        public struct Stride: _TimeIntervalSchedulerStride {
            /// The value of this time interval in seconds; it keeps its sign.
            public var magnitude: TimeInterval

            /// Creates a stride of the given number of seconds.
            public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
        }
    }

    /// Options that affect the operation of the run loop scheduler: none.
    public struct SchedulerOptions: Sendable {}

    /// The current date.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// The minimum tolerance allowed by the scheduler: none.
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Runs the action on the run loop's next pass in its default mode (`perform(inModes:)`), after the
    /// actions scheduled before it.
    ///
    /// A performed block does not wake a sleeping run loop (on Linux nothing public does), so a timer
    /// that fires at once is added too, whose only job is the wake-up. A timer alone would not promise
    /// the order: timers run by fire date, and two dates taken in turn can be equal (or reversed, when
    /// the wall clock steps back).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        perform(inModes: [.default]) { work.run() }
        add(Timer(fire: Date(), interval: 0, repeats: false) { _ in }, forMode: .default)
    }

    /// Runs the action once `date` is reached, from a one-shot timer added in the default mode.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = ScheduledAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.run() }
        timer.tolerance = max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
    }

    /// Runs the action at `date` and every `interval` after, from a repeating timer added in the
    /// default mode; cancelling (or releasing) the returned `AnyCancellable` invalidates the timer.
    ///
    /// Fires the run loop misses (it was busy, or not running) are skipped, not made up, as `Timer`'s are.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = ScheduledAction(action)
        let timer = Timer(
            fire: date.date, interval: max(interval.timeInterval, minimumRepeatInterval), repeats: true
        ) { _ in work.run() }
        timer.tolerance = max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }
}
