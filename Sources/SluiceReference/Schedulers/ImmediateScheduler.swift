// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A scheduler for performing synchronous actions.
///
/// Every action runs at once, on the calling thread, before `schedule` returns. Its clock never
/// moves: every instant is the same instant, and every stride converts to zero.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type used by the immediate scheduler: a single instant.
    public struct SchedulerTimeType: Strideable, Sendable {
        /// The distance to another immediate scheduler time: always zero.
        public func distance(to other: ImmediateScheduler.SchedulerTimeType) -> Stride { 0 }

        /// Adds the given stride; the immediate scheduler's time does not move, so this is `self`.
        public func advanced(by n: Stride) -> ImmediateScheduler.SchedulerTimeType { self }

        /// The increment by which the immediate scheduler counts time.
        ///
        /// A plain count: literals and `init(_:)` store their (integer) value, while the
        /// `SchedulerTimeIntervalConvertible` conversions all give zero, as this clock never moves.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval (despite its name, it keeps its sign).
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given value.
            public init(_ value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from an integer literal.
            public init(integerLiteral value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from a floating-point literal,
            /// truncated towards zero.
            public init(floatLiteral value: Double) { magnitude = Int(value) }

            /// Creates an immediate scheduler time interval from an integer, if `Int` holds it.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Returns a Boolean value indicating whether the first stride is shorter than the second.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Multiplies two strides.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }

            /// Adds two strides.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }

            /// Subtracts one stride from another.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }

            /// Subtracts one stride from another in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Multiplies one stride by another in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Adds one stride to another in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// Zero: the immediate scheduler has no notion of seconds.
            public static func seconds(_ s: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler has no notion of seconds.
            public static func seconds(_ s: Double) -> Stride { 0 }

            /// Zero: the immediate scheduler has no notion of milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler has no notion of microseconds.
            public static func microseconds(_ us: Int) -> Stride { 0 }

            /// Zero: the immediate scheduler has no notion of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }
    }

    /// The immediate scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// The immediate scheduler's one instant.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Zero: actions run at once.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs the action at once.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs the action at once: every date is now.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs the action once, at once, and returns a cancellable with nothing left to cancel: the
    /// immediate scheduler cannot wait for the next interval.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
