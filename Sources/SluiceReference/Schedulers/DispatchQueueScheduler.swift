// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue: an instant on the dispatch uptime clock.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Creates a dispatch queue time type instance from a decoder: the raw clock value (a single number).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        /// Encodes this dispatch queue time type instance: the raw clock value (a single number).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.rawValue)
        }

        /// The distance to another dispatch queue time, in nanoseconds.
        ///
        /// A distance too large to count in an `Int` (towards or from `.distantFuture`, say) is
        /// `.nanoseconds(.max)`, whichever way it points.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let difference = Int128(other.dispatchTime.rawValue) - Int128(dispatchTime.rawValue)
            guard let nanoseconds = Int(exactly: difference) else { return .nanoseconds(.max) }
            return .nanoseconds(nanoseconds)
        }

        /// Returns a dispatch queue time advanced by the given stride.
        ///
        /// The result stays on the uptime clock, which Dispatch counts in `Int64`: past `Int.max`
        /// it is `.distantFuture`; before its start it is the first instant (raw value 1, since 0
        /// means "now" to Dispatch). An instant already past `Int.max` is the distant future,
        /// which no stride brings back.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            if dispatchTime.rawValue > UInt64(Int.max) { return SchedulerTimeType(.distantFuture) }
            let raw = Int128(dispatchTime.rawValue) + Int128(n.magnitude)
            if raw > Int128(Int.max) { return SchedulerTimeType(.distantFuture) }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: UInt64(max(raw, 1))))
        }

        /// Earlier instants on the clock come first.
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.rawValue < rhs.dispatchTime.rawValue
        }

        /// Two instants are equal when their raw clock values are.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.rawValue == rhs.dispatchTime.rawValue
        }

        /// Hashes the raw clock value.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.rawValue)
        }

        /// A time interval for a dispatch queue, stored in nanoseconds. Literals and the numeric
        /// initialisers are seconds; unit conversions saturate at the ends of `Int`.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds (despite its name, it keeps its sign).
            public var magnitude: Int

            private enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            private init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// A dispatch time interval equivalent to this stride.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates a stride from a dispatch time interval; `.never` is the longest stride.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self = .nanoseconds(.max)
                }
            }

            /// Creates a stride of the given number of seconds.
            public init(_ timeInterval: Double) { self = .seconds(timeInterval) }

            /// Creates a stride of the given number of seconds.
            public init(_ timeInterval: Int) { self = .seconds(timeInterval) }

            /// Creates a stride from a floating-point literal, in seconds.
            public init(floatLiteral value: Double) { self = .seconds(value) }

            /// Creates a stride from an integer literal, in seconds.
            public init(integerLiteral value: Int) { self = .seconds(value) }

            /// Creates a stride of `source` seconds, or nil if that many nanoseconds overflow `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanoseconds
            }

            /// Counts `value` units of `unit` nanoseconds, saturating at the ends of `Int`.
            private static func saturating(_ value: Int, times unit: Int) -> Stride {
                Stride(nanoseconds: clampedToInt(Int128(value) * Int128(unit)))
            }

            private static func clampedToInt(_ value: Int128) -> Int {
                Int(min(max(value, Int128(Int.min)), Int128(Int.max)))
            }

            /// A stride of the given number of seconds, saturating.
            public static func seconds(_ s: Int) -> Stride { saturating(s, times: 1_000_000_000) }

            /// A stride of the given number of seconds, to the nearest nanosecond, saturating
            /// (NaN is zero).
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = (s * 1_000_000_000).rounded()
                if nanoseconds.isNaN { return Stride(nanoseconds: 0) }
                if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
                if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
                return Stride(nanoseconds: Int(nanoseconds))
            }

            /// A stride of the given number of milliseconds, saturating.
            public static func milliseconds(_ ms: Int) -> Stride { saturating(ms, times: 1_000_000) }

            /// A stride of the given number of microseconds, saturating.
            public static func microseconds(_ us: Int) -> Stride { saturating(us, times: 1_000) }

            /// A stride of the given number of nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            /// Returns a Boolean value indicating whether the first stride is shorter than the second.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Multiplies two strides as numbers of seconds (so `2 * 3` is six seconds): the nanosecond
            /// product over 10^9, truncated to whole nanoseconds and saturating.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: clampedToInt(Int128(lhs.magnitude) * Int128(rhs.magnitude) / 1_000_000_000))
            }

            /// Adds two strides, saturating.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: clampedToInt(Int128(lhs.magnitude) + Int128(rhs.magnitude)))
            }

            /// Subtracts one stride from another, saturating.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: clampedToInt(Int128(lhs.magnitude) - Int128(rhs.magnitude)))
            }

            /// Subtracts one stride from another in place.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Multiplies one stride by another in place.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Adds one stride to another in place.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Creates dispatch queue scheduler options.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The current instant on the dispatch clock.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// The minimum tolerance allowed by the scheduler: none.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs the action on this queue, asynchronously (`async`), with the options' group, QoS and flags.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = ScheduledAction(action)
        async(group: options?.group, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            work.run()
        }
    }

    /// Runs the action on this queue once `date` is reached (`asyncAfter`); the options' group, if
    /// any, counts it as pending until it has run.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = ScheduledAction(action)
        let group = options?.group
        group?.enter()
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            work.run()
            group?.leave()
        }
    }

    /// Runs the action on this queue at `date` and then every `interval`, with a dispatch timer
    /// source, until the returned cancellable is cancelled (or released). An interval of zero or
    /// less repeats every 0.1 ms, as `Timer` does (Dispatch would trap on it).
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = ScheduledAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            work.run()
        }
        timer.schedule(
            deadline: date.dispatchTime,
            repeating: .nanoseconds(max(interval.magnitude, minimumRepeatNanoseconds)),
            leeway: .nanoseconds(max(tolerance.magnitude, 0)))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// A caller's action, made sendable for Dispatch.
///
/// Dispatch on Linux declares its work closures `@Sendable`; Combine's `Scheduler` does not, and a
/// scheduler must accept any action. Running the action on the queue is exactly what the caller
/// asked for, so the box only carries it across.
private final class ScheduledAction: @unchecked Sendable {
    private let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    func run() { action() }
}

/// The shortest interval of a repeating schedule, in nanoseconds: Foundation's `Timer` takes a
/// non-positive interval as 0.1 ms, and so does this scheduler. An interval computed as "deadline
/// minus now" is zero or negative in real code; passed on, Dispatch would trap on it.
let minimumRepeatNanoseconds = 100_000
