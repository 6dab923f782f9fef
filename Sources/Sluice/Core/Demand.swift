// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Demand is additive and saturates at ``unlimited``. Negative demand does not exist: `.max(n)`
    /// with a negative `n` traps, and arithmetic whose result would be negative gives `.max(0)`, as
    /// Apple documents for `-` and `-=`.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// The finite count, or `UInt.max` for unlimited. Finite counts never exceed `Int.max`.
        @usableFromInline let rawValue: UInt

        @inlinable init(rawValue: UInt) { self.rawValue = rawValue }

        /// A request for as many values as the publisher can produce.
        @inlinable public static var unlimited: Demand { Demand(rawValue: .max) }

        /// A request for no elements from the publisher. Passing it to `request(_:)` is an API violation.
        @inlinable public static var none: Demand { Demand(rawValue: 0) }

        /// A request for at most `value` elements. `value` must not be negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            require(
                value >= 0,
                "API violation: Subscribers.Demand.max(_:) requires a non-negative count (got \(value)): demand cannot be negative"
            )
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` when the demand is unlimited.
        @inlinable public var max: Int? { rawValue == .max ? nil : Int(rawValue) }

        public var description: String { rawValue == .max ? "unlimited" : "max(\(rawValue))" }

        /// A finite count plus a signed delta: saturates upward into unlimited and downward at `.none`.
        @inlinable
        static func offset(_ count: UInt, by delta: Int) -> Demand {
            if delta >= 0 {
                let (sum, overflow) = count.addingReportingOverflow(UInt(delta))
                return overflow || sum > UInt(Int.max) ? .unlimited : Demand(rawValue: sum)
            }
            let magnitude = delta.magnitude
            return magnitude < count ? Demand(rawValue: count - magnitude) : .none
        }

        /// Adds demand: `.unlimited` absorbs any amount, and a finite sum past `Int.max` saturates into it.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard lhs.rawValue != .max, rhs.rawValue != .max else { return .unlimited }
            return offset(lhs.rawValue, by: Int(rhs.rawValue))
        }

        /// Adds demand: `.unlimited` absorbs any amount, and a finite sum past `Int.max` saturates into it.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            lhs.rawValue == .max ? .unlimited : offset(lhs.rawValue, by: rhs)
        }

        /// Adds demand in place (see `+`).
        @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        /// Adds demand in place (see `+`).
        @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        /// Multiplies a finite demand; `.unlimited` stays unlimited.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard lhs.rawValue != .max else { return .unlimited }
            require(
                rhs >= 0,
                "API violation: Subscribers.Demand multiplied by a negative number (\(rhs)): demand cannot be negative")
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product > UInt(Int.max) ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies demand in place (see `*`).
        @inlinable public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        /// Subtracts demand: `.unlimited` minus anything is `.unlimited`; a finite demand minus `.unlimited`
        /// is `.none`; a result that would be negative is `.none`, as Apple documents ("Combine adjusts the
        /// value to `.max(0)`").
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard lhs.rawValue != .max else { return .unlimited }
            guard rhs.rawValue != .max, rhs.rawValue < lhs.rawValue else { return .none }
            return Demand(rawValue: lhs.rawValue - rhs.rawValue)
        }

        /// Subtracts demand; `.unlimited` minus a finite amount stays unlimited, and a result that would
        /// be negative is `.none`, as Apple documents.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard lhs.rawValue != .max else { return .unlimited }
            if rhs < 0 {
                // Past `Int.max` this is `.none` in Combine, not `.unlimited` (OpenCombine's
                // Apple-validated SubscribersDemandTests.testSubtraction).
                let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
                return overflow ? .none : Demand(rawValue: UInt(difference))
            }
            return offset(lhs.rawValue, by: -rhs)
        }

        /// Subtracts demand in place (see `-`).
        @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        /// Subtracts demand in place (see `-`).
        @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool { rhs < 0 || lhs.rawValue > UInt(rhs) }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func >= (lhs: Demand, rhs: Int) -> Bool { rhs <= 0 || lhs.rawValue >= UInt(rhs) }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool { rhs > 0 && lhs.rawValue < UInt(rhs) }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func <= (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue <= UInt(rhs) }
        /// Whether a demand is exactly that number of values (never, for `.unlimited`).
        @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { rhs >= 0 && lhs.rawValue == UInt(rhs) }
        /// Whether a demand is not exactly that number of values (always, for `.unlimited`).
        @inlinable public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        @inlinable public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        /// Whether a demand is exactly that number of values (never, for `.unlimited`).
        @inlinable public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// Whether a demand is not exactly that number of values (always, for `.unlimited`).
        @inlinable public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }

        /// Combine's encoded form of `.unlimited`: one past `Int.max`.
        static var encodedUnlimited: UInt { UInt(Int.max) + 1 }

        /// Decodes Combine's form: a count; anything past `Int.max` is `.unlimited`; a negative
        /// number is an error.
        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(UInt.self)
            rawValue = raw > UInt(Int.max) ? .max : raw
        }

        /// Encodes Combine's form: the count, or one past `Int.max` for `.unlimited`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue == .max ? Self.encodedUnlimited : rawValue)
        }
    }
}

extension Subscribers.Demand {
    /// The rule most subscriptions enforce on `request(_:)`, as Combine's do. The ones that only
    /// pass demand on (`handleEvents`, `delay`, `receive(on:)`, `subscribe(on:)`, ...) take a zero
    /// request as Combine's do, and so do the sequence and recording subscriptions. `subscription`
    /// names the operator in the message (its `description`, built only when the request traps).
    @inlinable @inline(__always)
    package func assertNonZero(on subscription: @autoclosure () -> String) {
        if _slowPath(rawValue == 0) { Self.zeroRequest(on: subscription()) }
    }

    @usableFromInline @inline(never)
    static func zeroRequest(on subscription: String) -> Never {
        trap(
            "API violation: request(.none) on \(subscription)'s subscription; a subscription must be asked for at least one value"
        )
    }
}
