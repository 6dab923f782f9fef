// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fused zip: Zip, Zip3 and Zip4 over synchronous upstreams, for the consumers that ask for
// `.unlimited` at once (see Zip.swift).

extension _Runtime {
    /// A zip of synchronous upstreams, for a consumer whose demand is unlimited from the start.
    ///
    /// That is what the operator does there: it subscribes its upstreams in order (each cursor is made
    /// then, and looks at its end at once, as a fused subscription does), and gives downstream its
    /// subscription only after; downstream's `.unlimited` then goes to each upstream in turn, and each
    /// sends everything and completes inside that call, into its queue, before any tuple goes out. Then
    /// a failure, if any upstream failed (the first to fail), ends the stream; otherwise the tuples go
    /// out and the stream finishes. Zip3 and Zip4 are zips of zips: the order of the upstreams is the same.
    @frozen
    public struct ZipCursor<A: _Runtime.FusedCursor, B: _Runtime.FusedCursor, Join: _Runtime.ZipJoin>: _Runtime
            .FusedCursor
    where A.Failure == B.Failure, Join.A == A.Output, Join.B == B.Output {
        public typealias Output = Join.Output
        public typealias Failure = A.Failure

        @usableFromInline var a: A
        @usableFromInline var b: B
        /// Whether each upstream was exhausted when it was subscribed (when its cursor was made).
        @usableFromInline let aWasExhausted: Bool
        @usableFromInline let bWasExhausted: Bool
        /// Each upstream's values, once both have run.
        @usableFromInline var aValues: [A.Output] = []
        @usableFromInline var bValues: [B.Output] = []
        @usableFromInline var hasRun = false
        @usableFromInline var failure: Failure?
        /// The next tuple's place.
        @usableFromInline var index = 0

        @inlinable @inline(__always)
        init(_ a: A, _ b: B) {
            var a = a
            aWasExhausted = a.isExhausted
            var b = b
            bWasExhausted = b.isExhausted
            self.a = a
            self.b = b
        }

        @inlinable @inline(__always)
        public mutating func next() -> _Runtime.StageStep<Output, Failure> {
            if !hasRun { run() }
            if let failure { return .failure(failure) }
            guard index < aValues.count && index < bValues.count else { return .finished }
            defer { index += 1 }
            return .value(Join.join(aValues[index], bValues[index]))
        }

        /// Runs each upstream to its end, in order.
        @inlinable
        mutating func run() {
            hasRun = true
            let aFailure = Self.collect(&a, wasExhausted: aWasExhausted, into: &aValues)
            // Only as many of b's values make tuples (more are still pulled: their closures run).
            bValues.reserveCapacity(aValues.count)
            let bFailure = Self.collect(&b, wasExhausted: bWasExhausted, into: &bValues)
            failure = aFailure ?? bFailure
        }

        /// Runs `cursor` to its end into `values`, as a fused subscription asked for `.unlimited`
        /// would; returns its failure.
        @inlinable
        static func collect<C: _Runtime.FusedCursor>(
            _ cursor: inout C, wasExhausted: Bool, into values: inout [C.Output]
        ) -> Failure?
        where C.Failure == Failure {
            if !wasExhausted {
                loop: while true {
                    switch cursor.next() {
                    case .value(let value): values.append(value)
                    case .skip: break
                    case .finished: return nil
                    case .failure(let error): return error
                    }
                    if cursor.isExhausted { break loop }
                }
            }
            if case .failure(let error) = cursor.next() { return error }
            return nil
        }

        @inlinable public var isExhausted: Bool {
            mutating get { hasRun && (failure != nil || index >= aValues.count || index >= bValues.count) }
        }

        /// Every upstream must be fusable under any demand; `A` may be the zip of the ones before it
        /// (`Join.extendsZip`), which needs unlimited demand itself.
        @inlinable public static var _traits: _Runtime.CursorTraits {
            let aFuses = Join.extendsZip ? A._traits.contains(.fusable) : A.fusesUnderAnyDemand
            return .needsUnlimitedDemand.union(.fusable(when: aFuses && B.fusesUnderAnyDemand))
        }

        @inlinable public var _name: StaticString { "Zip" }
    }
}

extension _Runtime {
    /// How `_Runtime.ZipCursor` makes its tuple: a type rather than a stored closure, so that the join is
    /// inlined into the loop.
    public protocol ZipJoin {
        associatedtype A
        associatedtype B
        associatedtype Output
        /// Whether `A` is the zip of the upstreams before the last (`Zip3`, `Zip4`).
        static var extendsZip: Bool { get }
        static func join(_ a: A, _ b: B) -> Output
    }
}

extension _Runtime {
    /// `Zip`'s tuple.
    public enum ZipPair<A, B>: _Runtime.ZipJoin {
        @inlinable public static var extendsZip: Bool { false }

        @inlinable @inline(__always)
        public static func join(_ a: A, _ b: B) -> (A, B) { (a, b) }
    }
}

extension _Runtime {
    /// `Zip3`'s tuple, from a pair and a third value.
    public enum ZipAppend3<X, Y, Z>: _Runtime.ZipJoin {
        @inlinable public static var extendsZip: Bool { true }

        @inlinable @inline(__always)
        public static func join(_ a: (X, Y), _ b: Z) -> (X, Y, Z) { (a.0, a.1, b) }
    }
}

extension _Runtime {
    /// `Zip4`'s tuple, from a triple and a fourth value.
    public enum ZipAppend4<X, Y, Z, W>: _Runtime.ZipJoin {
        @inlinable public static var extendsZip: Bool { true }

        @inlinable @inline(__always)
        public static func join(_ a: (X, Y, Z), _ b: W) -> (X, Y, Z, W) { (a.0, a.1, a.2, b) }
    }
}
