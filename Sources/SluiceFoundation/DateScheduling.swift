// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// What the RunLoop and OperationQueue schedulers share: wall-clock time as a `Date`, strides as a
// `TimeInterval` of seconds, and the re-typing of a caller's action for Foundation's `@Sendable` APIs.
//
// Combine spells the time types twice (`RunLoop.SchedulerTimeType`, `OperationQueue.SchedulerTimeType`,
// each with a nested `Stride`) with the same API. They must stay distinct nominal types: code written for
// Combine (OpenCombine's suite among it) extends each one with its own protocol conformances, and Swift
// rejects two conformances of one type to a protocol, even a generic type's under different arguments.
// So each scheduler declares a few-line struct (its stored value and initialiser), and everything else,
// written once, comes from the two protocols below as default implementations.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

// MARK: - Time

/// The shape shared by `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType`: an instant
/// on the wall clock, held as a `Date`.
///
/// Public only because the conforming types' members come from its extension; conform nothing else.
public protocol _DateSchedulerTime: Strideable, Codable, Hashable, Sendable
where Stride: _TimeIntervalSchedulerStride {
    /// The date this instant stands for.
    var date: Date { get }
    /// Creates an instant from a date.
    init(_ date: Date)
}

extension _DateSchedulerTime {
    /// The seconds from this instant to `other`, negative when `other` is earlier.
    @inlinable
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate)
    }

    /// The instant `n` seconds from this one; no clamping, as `Date` has none.
    @inlinable
    public func advanced(by n: Stride) -> Self {
        Self(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate + n.magnitude))
    }

    // Stated rather than left to `Strideable`'s defaults (which go through `distance(to:)`, where an
    // infinite date is unequal to itself): instants compare and hash as their dates do.

    /// Earlier dates come first.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.date < rhs.date }

    /// Instants are equal when their dates are.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.date == rhs.date }

    /// Hashes the date.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(date) }
}

// MARK: - Stride

/// The shape shared by the two schedulers' `Stride` types: a signed number of seconds, held as a
/// `TimeInterval` in `magnitude` (Combine's naming: it keeps its sign). Literals and the numeric
/// initialisers are seconds, and arithmetic is plain floating point (`seconds(.infinity)` is infinite).
///
/// Public only because the conforming types' members come from its extension; conform nothing else.
public protocol _TimeIntervalSchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral, Codable, Sendable
where Magnitude == TimeInterval, FloatLiteralType == TimeInterval, IntegerLiteralType == TimeInterval {
    /// Creates a stride of the given number of seconds.
    init(_ timeInterval: TimeInterval)
}

extension _TimeIntervalSchedulerStride {
    /// The stride in seconds.
    @inlinable public var timeInterval: TimeInterval { magnitude }

    /// Creates a stride from a floating-point literal, in seconds.
    @inlinable public init(floatLiteral value: TimeInterval) { self.init(value) }

    /// Creates a stride from an integer literal, in seconds.
    @inlinable public init(integerLiteral value: TimeInterval) { self.init(value) }

    /// Creates a stride of `source` seconds, or nil when a `TimeInterval` cannot hold it exactly.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = TimeInterval(exactly: source) else { return nil }
        self.init(seconds)
    }

    // Sub-second units divide by an exact power of ten, so each is the correctly rounded quotient
    // (`.nanoseconds(2)` is exactly the double nearest 2e-9, as Combine's is).

    /// A stride of the given number of seconds.
    @inlinable public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }

    /// A stride of the given number of seconds.
    @inlinable public static func seconds(_ s: Double) -> Self { Self(s) }

    /// A stride of the given number of milliseconds.
    @inlinable public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }

    /// A stride of the given number of microseconds.
    @inlinable public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }

    /// A stride of the given number of nanoseconds.
    @inlinable public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }

    /// Returns a Boolean value indicating whether the first stride is shorter than the second.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

    /// Strides are equal when their seconds are.
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.magnitude == rhs.magnitude }

    /// Multiplies two strides as seconds (`2 * 3` is six seconds).
    @inlinable public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }

    /// Adds two strides.
    @inlinable public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }

    /// Subtracts one stride from another.
    @inlinable public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }

    /// Multiplies one stride by another in place.
    @inlinable public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

    /// Adds one stride to another in place.
    @inlinable public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }

    /// Subtracts one stride from another in place.
    @inlinable public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }
}

// MARK: - Running actions

/// The shortest repeat interval a scheduler honours: what `Timer` documents for a non-positive
/// interval, so that a zero or negative interval repeats quickly instead of spinning or firing once.
let minimumRepeatInterval: TimeInterval = 0.000_1

/// A caller's action, typed as Foundation's run loop, timer and dispatch APIs want their blocks
/// (`@Sendable`).
///
/// Combine's `Scheduler` takes plain closures, and running one on the run loop or queue the caller
/// chose is what the caller asked for; this wrapper says so once instead of at every call site.
struct ScheduledAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}
