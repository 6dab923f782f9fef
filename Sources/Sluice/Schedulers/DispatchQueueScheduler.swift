// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue: an instant on the dispatch uptime clock.
    @frozen
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        @inlinable
        public init(_ time: DispatchTime) { dispatchTime = time }

        /// Creates a dispatch queue time type instance from a decoder: the raw clock value (a single number).
        public init(from decoder: any Decoder) throws {
            self.init(DispatchTime(uptimeNanoseconds: try decoder.singleValueContainer().decode(UInt64.self)))
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
        @inlinable
        public func distance(to other: Self) -> Stride {
            let from = dispatchTime.rawValue
            let to = other.dispatchTime.rawValue
            if to >= from {
                let ahead = to - from
                return .nanoseconds(ahead <= UInt64(Int.max) ? Int(ahead) : .max)
            }
            let behind = from - to
            // -(Int.max + 1) is Int.min, the one negative distance without a positive twin.
            if behind <= UInt64(Int.max) { return .nanoseconds(-Int(behind)) }
            return .nanoseconds(behind == UInt64(Int.max) + 1 ? .min : .max)
        }

        /// Returns a dispatch queue time advanced by the given stride.
        ///
        /// The result stays on the uptime clock, which Dispatch counts in `Int64`: past `Int.max`
        /// it is `.distantFuture`; before its start it is the first instant (raw value 1, since 0
        /// means "now" to Dispatch). An instant already past `Int.max` is the distant future,
        /// which no stride brings back.
        @inlinable
        public func advanced(by n: Stride) -> Self {
            let raw = dispatchTime.rawValue
            guard raw <= UInt64(Int.max) else { return Self(.distantFuture) }
            let (sum, overflow) = Int(raw).addingReportingOverflow(n.magnitude)
            if overflow {
                // Only a positive stride can overflow from a non-negative start.
                return Self(.distantFuture)
            }
            return Self(DispatchTime(uptimeNanoseconds: UInt64(sum < 1 ? 1 : sum)))
        }

        /// Earlier instants on the clock come first.
        @inlinable
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime.rawValue < rhs.dispatchTime.rawValue }

        /// Two instants are equal when their raw clock values are.
        @inlinable
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.dispatchTime.rawValue == rhs.dispatchTime.rawValue }

        /// Hashes the raw clock value.
        @inlinable
        public func hash(into hasher: inout Hasher) { hasher.combine(dispatchTime.rawValue) }

        /// A time interval for a dispatch queue, stored in nanoseconds. Literals and the numeric
        /// initialisers are seconds; unit conversions saturate at the ends of `Int`.
        @frozen
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

            @usableFromInline
            enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            @inlinable init(ns: Int) { magnitude = ns }

            /// A dispatch time interval equivalent to this stride.
            @inlinable public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates a stride from a dispatch time interval; `.never` is the longest stride.
            @inlinable
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let count): self = .seconds(count)
                case .milliseconds(let count): self = .milliseconds(count)
                case .microseconds(let count): self = .microseconds(count)
                case .nanoseconds(let count): self.init(ns: count)
                case .never: self.init(ns: .max)
                }
            }

            /// Creates a stride of the given number of seconds.
            @inlinable public init(_ timeInterval: Double) { self = .seconds(timeInterval) }

            /// Creates a stride of the given number of seconds.
            @inlinable public init(_ timeInterval: Int) { self = .seconds(timeInterval) }

            /// Creates a stride from a floating-point literal, in seconds.
            @inlinable public init(floatLiteral value: Double) { self = .seconds(value) }

            /// Creates a stride from an integer literal, in seconds.
            @inlinable public init(integerLiteral value: Int) { self = .seconds(value) }

            /// Creates a stride of `source` seconds, or nil if that many nanoseconds overflow `Int`.
            @inlinable
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                if overflow { return nil }
                self.init(ns: ns)
            }

            /// `count * unit` nanoseconds, saturating towards the sign of `count`.
            @inlinable
            static func scaled(_ count: Int, by unit: Int) -> Self {
                let (ns, overflow) = count.multipliedReportingOverflow(by: unit)
                return Self(ns: overflow ? (count < 0 ? .min : .max) : ns)
            }

            /// A stride of the given number of seconds, saturating.
            @inlinable public static func seconds(_ s: Int) -> Self { scaled(s, by: 1_000_000_000) }

            /// A stride of the given number of seconds, to the nearest nanosecond, saturating
            /// (NaN is zero).
            @inlinable
            public static func seconds(_ s: Double) -> Self {
                let ns = (s * 1_000_000_000).rounded()
                guard ns == ns else { return Self(ns: 0) }
                // Double(Int.max) is 2^63, which Int cannot hold: anything at or past it saturates.
                if ns >= Double(Int.max) { return Self(ns: .max) }
                if ns <= Double(Int.min) { return Self(ns: .min) }
                return Self(ns: Int(ns))
            }

            /// A stride of the given number of milliseconds, saturating.
            @inlinable public static func milliseconds(_ ms: Int) -> Self { scaled(ms, by: 1_000_000) }

            /// A stride of the given number of microseconds, saturating.
            @inlinable public static func microseconds(_ us: Int) -> Self { scaled(us, by: 1_000) }

            /// A stride of the given number of nanoseconds.
            @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(ns: ns) }

            /// Returns a Boolean value indicating whether the first stride is shorter than the second.
            @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Multiplies two strides as numbers of seconds (so `2 * 3` is six seconds): the nanosecond
            /// product over 10^9, truncated to whole nanoseconds and saturating.
            @inlinable
            public static func * (lhs: Self, rhs: Self) -> Self {
                let wide = lhs.magnitude.multipliedFullWidth(by: rhs.magnitude)
                let negative = (lhs.magnitude < 0) != (rhs.magnitude < 0)
                // |product| as a 128-bit magnitude, divided by 10^9 in two 64-bit steps.
                var high = UInt64(bitPattern: Int64(wide.high))
                var low = UInt64(wide.low)
                if negative && (high != 0 || low != 0) {
                    // Two's-complement negation of the 128-bit product.
                    low = ~low &+ 1
                    high = ~high &+ (low == 0 ? 1 : 0)
                }
                let (quotientHigh, remainderHigh) = high.quotientAndRemainder(dividingBy: 1_000_000_000)
                let (quotientLow, _) = UInt64(1_000_000_000).dividingFullWidth((remainderHigh, low))
                guard quotientHigh == 0, quotientLow <= UInt64(Int.max) else { return Self(ns: negative ? .min : .max) }
                return Self(ns: negative ? -Int(quotientLow) : Int(quotientLow))
            }

            /// Adds two strides, saturating.
            @inlinable
            public static func + (lhs: Self, rhs: Self) -> Self {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                return Self(ns: overflow ? (rhs.magnitude < 0 ? .min : .max) : sum)
            }

            /// Subtracts one stride from another, saturating.
            @inlinable
            public static func - (lhs: Self, rhs: Self) -> Self {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                return Self(ns: overflow ? (rhs.magnitude < 0 ? .max : .min) : difference)
            }

            /// Subtracts one stride from another in place.
            @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

            /// Multiplies one stride by another in place.
            @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

            /// Adds one stride to another in place.
            @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    @frozen
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Creates dispatch queue scheduler options.
        @inlinable
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The current instant on the dispatch clock.
    @inlinable public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// The minimum tolerance allowed by the scheduler: none.
    @inlinable public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    // This is `receive(on:)`'s per-value path, so without options it is one plain `async`.
    /// Runs the action on this queue, asynchronously (`async`), with the options' group, QoS and flags.
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = sendableAction(action)
        if let options {
            async(group: options.group, qos: options.qos, flags: options.flags, execute: work)
        } else {
            async(execute: work)
        }
    }

    /// Runs the action on this queue once `date` is reached (`asyncAfter`); the options' group, if
    /// any, counts it as pending until it has run.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = sendableAction(action)
        guard let options else {
            asyncAfter(deadline: date.dispatchTime, execute: work)
            return
        }
        if let group = options.group {
            group.enter()
            asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
                work()
                group.leave()
            }
        } else {
            asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags, execute: work)
        }
    }

    /// Runs the action on this queue at `date` and then every `interval`, with a dispatch timer
    /// source, until the returned cancellable is cancelled (or released). An interval of zero or
    /// less repeats every 0.1 ms, as `Timer` does (Dispatch would trap on it).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(
            qos: options?.qos ?? .unspecified, flags: options?.flags ?? [], handler: sendableAction(action))
        timer.schedule(
            deadline: date.dispatchTime, repeating: .nanoseconds(max(interval.magnitude, minimumRepeatNanoseconds)),
            leeway: .nanoseconds(tolerance.magnitude < 0 ? 0 : tolerance.magnitude))
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}

/// The caller's action, typed as Dispatch on Linux wants its work (`@Sendable`).
///
/// Combine's `Scheduler` takes plain closures, and running one on the queue is what the caller
/// asked for. `@Sendable` is a compile-time marker with the same representation, so this is a
/// re-typing, not a wrapper: `receive(on: queue)` pays for no extra allocation per value (a box
/// would cost one, and a closure around it another). The closure is re-typed inside a struct:
/// handing the bare function to the generic `unsafeBitCast` would reabstract it through two
/// thunks, each a closure context allocated per call.
@inlinable @inline(__always)
func sendableAction(_ action: @escaping () -> Void) -> @Sendable () -> Void {
    unsafeBitCast(PlainAction(run: action), to: SendableAction.self).run
}

/// `sendableAction`'s source layout: one function stored at its own abstraction level.
@frozen @usableFromInline
struct PlainAction {
    @usableFromInline let run: () -> Void
    @inlinable init(run: @escaping () -> Void) { self.run = run }
}

/// `sendableAction`'s target layout: the same function, typed `@Sendable`.
@frozen @usableFromInline
struct SendableAction {
    @usableFromInline let run: @Sendable () -> Void
}

/// The shortest interval of a repeating schedule, in nanoseconds: Foundation's `Timer` takes a
/// non-positive interval as 0.1 ms, and so does this scheduler. An interval computed as "deadline
/// minus now" is zero or negative in real code; passed on, Dispatch would trap on it.
let minimumRepeatNanoseconds = 100_000
