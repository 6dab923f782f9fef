// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fixed menu of pure closures a program may use. Each entry knows what it computes (so the
// interpreter can run it) and how it reads as Swift (so the printer can show it). Nothing here
// imports an implementation: the program language is independent of both.

/// The errors programs fail with. The conformance suite has a `TestError` with the same cases, so a
/// printed program pastes into a conformance test unchanged.
public enum TestError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The error a `try` operator throws when its predicate holds.
    case oops
    /// The other error, which the menu's fixed failures use (`Inner.fail`, `Recovery.fail`, and the
    /// custom errors of `buffer` and `timeout`).
    case other

    public var description: String {
        switch self {
        case .oops: "oops"
        case .other: "other"
        }
    }
}

/// A pure function from Int to Int. Arithmetic wraps, so no entry can trap.
public enum IntFunction: Int, CaseIterable, Hashable, Sendable {
    /// Adds 1 (`x &+ 1`).
    case increment
    /// Doubles (`x &* 2`).
    case double
    /// Subtracts 3 (`x &- 3`).
    case minusThree
    /// Negates (`0 &- x`).
    case negate
    /// The remainder of division by 4 (`x % 4`, negative when `x` is).
    case modFour
    /// Halves, rounding toward zero (`x / 2`).
    case half

    /// The function's value at `x`.
    public func apply(_ x: Int) -> Int {
        switch self {
        case .increment: x &+ 1
        case .double: x &* 2
        case .minusThree: x &- 3
        case .negate: 0 &- x
        case .modFour: x % 4
        case .half: x / 2
        }
    }

    /// The body as a Swift expression over the variable `v`.
    public func swift(_ v: String) -> String {
        switch self {
        case .increment: "\(v) &+ 1"
        case .double: "\(v) &* 2"
        case .minusThree: "\(v) &- 3"
        case .negate: "0 &- \(v)"
        case .modFour: "\(v) % 4"
        case .half: "\(v) / 2"
        }
    }
}

/// A pure predicate over Int.
public enum Predicate: Int, CaseIterable, Hashable, Sendable {
    /// `x % 2 == 0`
    case isEven
    /// `x > 3`
    case greaterThanThree
    /// `x < 2`
    case lessThanTwo
    /// `x != 0`
    case isNonZero
    /// Always true.
    case always
    /// Always false.
    case never
    /// `x % 3 == 1` (false for every negative `x`).
    case modThreeIsOne

    /// Whether the predicate holds for `x`.
    public func test(_ x: Int) -> Bool {
        switch self {
        case .isEven: x % 2 == 0
        case .greaterThanThree: x > 3
        case .lessThanTwo: x < 2
        case .isNonZero: x != 0
        case .always: true
        case .never: false
        case .modThreeIsOne: x % 3 == 1
        }
    }

    /// The predicate as a Swift expression over the variable `v`.
    public func swift(_ v: String) -> String {
        switch self {
        case .isEven: "\(v) % 2 == 0"
        case .greaterThanThree: "\(v) > 3"
        case .lessThanTwo: "\(v) < 2"
        case .isNonZero: "\(v) != 0"
        case .always: "true"
        case .never: "false"
        case .modThreeIsOne: "\(v) % 3 == 1"
        }
    }
}

/// A pure accumulator `(partial, element) -> partial`, for scan and reduce.
public enum Accumulator: Int, CaseIterable, Hashable, Sendable {
    /// The running sum (`acc &+ x`).
    case sum
    /// An order-sensitive fold (`acc &* 2 &+ x`).
    case shiftAdd
    /// The largest so far (`max(acc, x)`).
    case maximum
    /// The latest element (`x`).
    case last

    /// The next partial result from `acc` and the element `x`.
    public func apply(_ acc: Int, _ x: Int) -> Int {
        switch self {
        case .sum: acc &+ x
        case .shiftAdd: acc &* 2 &+ x
        case .maximum: Swift.max(acc, x)
        case .last: x
        }
    }

    /// The body as a Swift expression over the variables `acc` and `x`.
    public func swift(_ acc: String, _ x: String) -> String {
        switch self {
        case .sum: "\(acc) &+ \(x)"
        case .shiftAdd: "\(acc) &* 2 &+ \(x)"
        case .maximum: "max(\(acc), \(x))"
        case .last: "\(x)"
        }
    }
}

/// How `collect` output becomes an Int again: an order-sensitive fold, so no information a
/// divergence could hide in is lost in practice.
public func encodeCollected(_ xs: [Int]) -> Int {
    xs.reduce(xs.count) { $0 &* 31 &+ $1 }
}

/// `encodeCollected(_:)` as the body of a Swift closure over `$0`, for the printer.
public let encodeCollectedSwift = "$0.reduce($0.count) { $0 &* 31 &+ $1 }"

/// The publisher a `catch` switches to. Each case is a fixed, literal Swift expression of type
/// `AnyPublisher<Int, any Error>`, the same in the printer and the interpreter.
public enum Recovery: Hashable, Sendable {
    /// `Just(value)`: the value, then finished.
    case just(Int)
    /// These values, then finished.
    case sequence([Int])
    /// `Fail` with `TestError.other`.
    case fail
    /// `Empty`: finishes at once.
    case empty

    /// The publisher as a Swift expression of type `AnyPublisher<Int, any Error>`.
    public var swift: String {
        switch self {
        case .just(let v): "Just(\(v)).setFailureType(to: (any Error).self).eraseToAnyPublisher()"
        case .sequence(let vs): "\(vs).publisher.setFailureType(to: (any Error).self).eraseToAnyPublisher()"
        case .fail: "Fail<Int, any Error>(error: TestError.other).eraseToAnyPublisher()"
        case .empty: "Empty<Int, any Error>().eraseToAnyPublisher()"
        }
    }
}
