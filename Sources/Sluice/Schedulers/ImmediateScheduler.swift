// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A scheduler for performing synchronous actions.
///
/// `schedule` runs the action before it returns, on the calling thread, whatever the date. Time
/// stands still: every instant is `now`, and the seconds/milliseconds/... conversions are zero.
@frozen
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type used by the immediate scheduler: one instant, so it holds nothing.
    @frozen
    public struct SchedulerTimeType: Strideable, Sendable {
        @inlinable init() {}

        /// The distance to another immediate scheduler time: always zero.
        @inlinable
        public func distance(to other: ImmediateScheduler.SchedulerTimeType) -> Stride { Stride(0) }

        /// This instant: the immediate scheduler's time never moves.
        @inlinable
        public func advanced(by n: Stride) -> ImmediateScheduler.SchedulerTimeType { self }

        /// The increment by which the immediate scheduler counts time: a plain integer that
        /// literals set, while every unit conversion yields zero.
        @frozen
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval; it keeps its sign (Combine's naming).
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given value.
            @inlinable public init(_ value: Int) { self.magnitude = value }

            /// Creates an immediate scheduler time interval from an integer literal.
            @inlinable public init(integerLiteral value: Int) { self.init(value) }

            /// Creates an immediate scheduler time interval from a floating-point literal,
            /// truncated towards zero.
            @inlinable public init(floatLiteral value: Double) { self.init(Int(value)) }

            /// Creates an immediate scheduler time interval from an integer, if `Int` holds it.
            @inlinable
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(value)
            }

            /// Returns a Boolean value indicating whether the first stride is shorter than the second.
            @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Multiplies two strides.
            @inlinable public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }

            /// Adds two strides.
            @inlinable public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }

            /// Subtracts one stride from another.
            @inlinable public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }

            /// Subtracts one stride from another in place.
            @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }

            /// Multiplies one stride by another in place.
            @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }

            /// Adds one stride to another in place.
            @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }

            /// Zero: immediate time has no seconds.
            @inlinable public static func seconds(_ s: Int) -> Self { Self(0) }

            /// Zero: immediate time has no seconds.
            @inlinable public static func seconds(_ s: Double) -> Self { Self(0) }

            /// Zero: immediate time has no milliseconds.
            @inlinable public static func milliseconds(_ ms: Int) -> Self { Self(0) }

            /// Zero: immediate time has no microseconds.
            @inlinable public static func microseconds(_ us: Int) -> Self { Self(0) }

            /// Zero: immediate time has no nanoseconds.
            @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(0) }
        }
    }

    /// The immediate scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    @inlinable init() {}

    /// The immediate scheduler's one instant.
    @inlinable public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Zero: nothing waits.
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

    /// Runs the action now.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs the action now: any date is now.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs the action now, once (there is no later for it to repeat at), and returns a
    /// cancellable with nothing to cancel.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
