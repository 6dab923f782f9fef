// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Demand is additive and saturates at ``unlimited``. Negative demand does not exist: `.max(n)`
    /// with a negative `n` traps, and arithmetic whose result would be negative gives `.max(0)`, as
    /// Apple documents for `-` and `-=`.
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// `UInt.max` stands for `.unlimited`; every other value is a finite count in `0...Int.max`.
        private let rawValue: UInt

        private init(rawValue: UInt) { self.rawValue = rawValue }

        /// A request for as many values as the publisher can produce.
        public static let unlimited = Demand(rawValue: .max)

        /// A request for no elements from the publisher. Passing it to `request(_:)` is an API violation.
        public static let none = Demand(rawValue: 0)

        /// A request for at most `value` elements. `value` must not be negative.
        public static func max(_ value: Int) -> Demand {
            require(
                value >= 0,
                "API violation: Subscribers.Demand.max(_:) requires a non-negative count (got \(value)): demand cannot be negative"
            )
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` when the demand is unlimited.
        public var max: Int? { self == .unlimited ? nil : Int(rawValue) }

        public var description: String { self == .unlimited ? "unlimited" : "max(\(rawValue))" }

        /// A finite count plus a signed delta: saturates at `.unlimited` above and at `.none` below
        /// (negative demand does not exist; Apple: "Combine adjusts the value to `.max(0)`").
        private static func finite(_ count: Int, plus delta: Int) -> Demand {
            let (sum, overflow) = count.addingReportingOverflow(delta)
            // A non-negative count overflows only upward.
            if overflow { return .unlimited }
            return sum < 0 ? .none : .max(sum)
        }

        /// Adds demand: `.unlimited` absorbs any amount, and a finite sum past `Int.max` saturates into it.
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max, let right = rhs.max else { return .unlimited }
            return finite(left, plus: right)
        }

        /// Adds demand: `.unlimited` absorbs any amount, and a finite sum past `Int.max` saturates into it.
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            return finite(left, plus: rhs)
        }

        /// Adds demand in place (see `+`).
        public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

        /// Adds demand in place (see `+`).
        public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

        /// Multiplies a finite demand; `.unlimited` stays unlimited.
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            require(
                rhs >= 0,
                "API violation: Subscribers.Demand multiplied by a negative number (\(rhs)): demand cannot be negative")
            let (product, overflow) = left.multipliedReportingOverflow(by: rhs)
            return overflow ? .unlimited : .max(product)
        }

        /// Multiplies demand in place (see `*`).
        public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        /// Subtracts demand: `.unlimited` minus anything is `.unlimited`; a finite demand minus `.unlimited`
        /// is `.none`; a result that would be negative is `.none`, as Apple documents ("Combine adjusts the
        /// value to `.max(0)`").
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            guard let right = rhs.max else { return .none }
            return .max(Swift.max(left - right, 0))
        }

        /// Subtracts demand; `.unlimited` minus a finite amount stays unlimited, and a result that would
        /// be negative is `.none`, as Apple documents.
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let left = lhs.max else { return .unlimited }
            // Subtracting a negative number past `Int.max` gives `.none` in Combine, not
            // `.unlimited` (OpenCombine's Apple-validated SubscribersDemandTests.testSubtraction).
            if rhs < 0, left.subtractingReportingOverflow(rhs).overflow { return .none }
            return finite(left, plus: -rhs)
        }

        /// Subtracts demand in place (see `-`).
        public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

        /// Subtracts demand in place (see `-`).
        public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 > rhs } ?? true }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func >= (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 >= rhs } ?? true }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func < (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 < rhs } ?? false }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func <= (lhs: Demand, rhs: Int) -> Bool { lhs.max.map { $0 <= rhs } ?? false }
        /// Whether a demand is exactly that number of values (never, for `.unlimited`).
        public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.max == rhs }
        /// Whether a demand is not exactly that number of values (always, for `.unlimited`).
        public static func != (lhs: Demand, rhs: Int) -> Bool { lhs.max != rhs }

        /// Compares a demand with another or with a number of values; `.unlimited` is greater than any number.
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Compares a demand with a number of values; `.unlimited` is greater than any number.
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        /// Whether a demand is exactly that number of values (never, for `.unlimited`).
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
        /// Whether a demand is not exactly that number of values (always, for `.unlimited`).
        public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }

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
    /// The rule most subscriptions enforce on `request(_:)`, as Combine's do; those that only pass
    /// demand on (`handleEvents`, `delay`, `receive(on:)`, ...) and the sequence and recording
    /// subscriptions take a zero request, as Combine's do. `subscription` names the operator in the
    /// message.
    @usableFromInline
    package func assertNonZero(on subscription: @autoclosure () -> String) {
        require(
            self != .none,
            "API violation: request(.none) on \(subscription())'s subscription; a subscription must be asked for at least one value"
        )
    }
}
