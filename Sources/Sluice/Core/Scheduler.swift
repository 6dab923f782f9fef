// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A protocol that defines when and how to execute a closure.
///
/// Combine's shape exactly, so schedulers written for Combine (and wrappers in the style of
/// pointfreeco's combine-schedulers) conform unchanged. Sluice's timing operators are generic over it
/// and `@inlinable`, so a concrete scheduler's `schedule` calls specialise in the user's module.
public protocol Scheduler<SchedulerTimeType> {
    /// The type that describes a point in time for this scheduler.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
    /// The type that describes the options this scheduler accepts when it performs an action.
    associatedtype SchedulerOptions

    /// This scheduler's definition of the current moment in time.
    var now: SchedulerTimeType { get }
    /// The minimum tolerance allowed by the scheduler.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Performs the action at the next possible opportunity.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
    /// Performs the action at some time after the specified date.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void)
    /// Performs the action at some time after the specified date, at the specified frequency, until the
    /// returned cancellable is cancelled.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable
}

// The option-less and tolerance-less spellings all funnel into the three requirements.
extension Scheduler {
    /// Performs the action at the next possible opportunity, without options.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Performs the action at some time after the specified date, with the minimum tolerance.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, without options.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action repeatedly from the specified date, with the minimum tolerance.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }

    /// Performs the action repeatedly from the specified date, without options.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }
}

/// A protocol that provides a scheduler with an expression for relative time.
public protocol SchedulerTimeIntervalConvertible {
    /// The given number of seconds.
    static func seconds(_ s: Int) -> Self
    /// The given number of seconds, as a floating-point value.
    static func seconds(_ s: Double) -> Self
    /// The given number of milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// The given number of microseconds.
    static func microseconds(_ us: Int) -> Self
    /// The given number of nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}
