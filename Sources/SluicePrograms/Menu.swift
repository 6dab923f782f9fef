// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fixed menu of pure closures a program may use. Each entry knows what it computes (so the
// interpreter can run it) and how it reads as Swift (so the printer can show it). Nothing here
// imports an implementation: the program language is independent of both.

/// The errors programs fail with. The conformance suite has a `TestError` with the same cases, so a
/// printed program pastes into a conformance test unchanged.
public enum TestError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    case oops
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
    case increment, double, minusThree, negate, modFour, half

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
    case isEven, greaterThanThree, lessThanTwo, isNonZero, always, never, modThreeIsOne

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
    case sum, shiftAdd, maximum, last

    public func apply(_ acc: Int, _ x: Int) -> Int {
        switch self {
        case .sum: acc &+ x
        case .shiftAdd: acc &* 2 &+ x
        case .maximum: Swift.max(acc, x)
        case .last: x
        }
    }

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

public let encodeCollectedSwift = "$0.reduce($0.count) { $0 &* 31 &+ $1 }"

/// The publisher a `catch` switches to. Each case is a fixed, literal Swift expression of type
/// `AnyPublisher<Int, any Error>`, the same in the printer and the interpreter.
public enum Recovery: Hashable, Sendable {
    case just(Int)
    case sequence([Int])
    case fail
    case empty

    public var swift: String {
        switch self {
        case .just(let v): "Just(\(v)).setFailureType(to: (any Error).self).eraseToAnyPublisher()"
        case .sequence(let vs): "\(vs).publisher.setFailureType(to: (any Error).self).eraseToAnyPublisher()"
        case .fail: "Fail<Int, any Error>(error: TestError.other).eraseToAnyPublisher()"
        case .empty: "Empty<Int, any Error>().eraseToAnyPublisher()"
        }
    }
}
