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
    @usableFromInline
    struct ZipCursor<A: _Runtime.FusedCursor, B: _Runtime.FusedCursor, Join: _Runtime.ZipJoin>: _Runtime.FusedCursor
    where A.Failure == B.Failure, Join.A == A.Output, Join.B == B.Output {
        @usableFromInline typealias Output = Join.Output
        @usableFromInline typealias Failure = A.Failure

        @usableFromInline var a: A
        @usableFromInline var b: B
        /// Whether each upstream was exhausted when it was subscribed (when its cursor was made).
        @usableFromInline let aWasExhausted: Bool
        @usableFromInline let bWasExhausted: Bool
        /// Each upstream's values, once both have run.
        @usableFromInline var aValues: ZipColumn<A.Output>?
        @usableFromInline var bValues: ZipColumn<B.Output>?
        @usableFromInline var failure: Failure?
        /// How many tuples go out once both upstreams have run (none if one failed); -1 before.
        @usableFromInline var pairs = -1
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
        mutating func next() -> _Runtime.StageStep<Output, Failure> {
            if _slowPath(pairs < 0) { run() }
            if index < pairs {
                let place = index
                index = place &+ 1
                // `place` is below both counts (`pairs` is at most each).
                return .value(Join.join(aValues.unsafelyUnwrapped[place], bValues.unsafelyUnwrapped[place]))
            }
            if let failure { return .failure(failure) }
            return .finished
        }

        /// Runs each upstream to its end, in order.
        @inlinable
        mutating func run() {
            let aValues = ZipColumn<A.Output>()
            let bValues = ZipColumn<B.Output>()
            self.aValues = aValues
            self.bValues = bValues
            let aFailure = Self.collect(&a, wasExhausted: aWasExhausted, into: aValues)
            // Only as many of b's values make tuples (more are still pulled: their closures run).
            bValues.reserve(aValues.count)
            let bFailure = Self.collect(&b, wasExhausted: bWasExhausted, into: bValues)
            failure = aFailure ?? bFailure
            pairs = failure == nil ? min(aValues.count, bValues.count) : 0
        }

        /// Runs `cursor` to its end into `values`, as a fused subscription asked for `.unlimited`
        /// would; returns its failure.
        @inlinable @inline(__always)
        static func collect<C: _Runtime.FusedCursor>(
            _ cursor: inout C, wasExhausted: Bool, into values: ZipColumn<C.Output>
        ) -> Failure?
        where C.Failure == Failure {
            if !wasExhausted, let end = values.fill(from: &cursor) {
                if case .failure(let error) = end { return error }
                return nil
            }
            if case .failure(let error) = cursor.next() { return error }
            return nil
        }

        @inlinable var isExhausted: Bool {
            mutating get { pairs >= 0 && index >= pairs }
        }

        /// Every upstream must be fusable under any demand; `A` may be the zip of the ones before it
        /// (`Join.extendsZip`), which needs unlimited demand itself.
        @inlinable static var _traits: _Runtime.CursorTraits {
            let aFuses = Join.extendsZip ? A._traits.contains(.fusable) : A.fusesUnderAnyDemand
            return .needsUnlimitedDemand.union(.fusable(when: aFuses && B.fusesUnderAnyDemand))
        }

        @inlinable var _name: StaticString { "Zip" }
    }
}

/// One upstream's values for zip, appended as it runs to its end and then read back by place: a
/// plain contiguous buffer, without an array's copy-on-write check at each append (the cursor owns
/// the only reference that is used).
@usableFromInline
final class ZipColumn<Element> {
    // Unchecked: a class's stored `var` otherwise pays a dynamic exclusivity check per access.
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<Element>?
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) @usableFromInline var capacity = 0

    @inlinable init() {}

    /// Appends `cursor`'s values until it ends (the step that ended it: `.finished` or `.failure`) or
    /// is exhausted (nil). The cursor and
    /// the count are locals while it runs, so that each append is a store and an increment.
    @inlinable @inline(__always)
    func fill<C: _Runtime.FusedCursor>(from cursor: inout C) -> _Runtime.StageStep<Element, C.Failure>?
    where C.Output == Element {
        var source = cursor
        reserve(count &+ source._underestimatedCount)
        var count = self.count
        var base = self.base
        var capacity = self.capacity
        defer {
            cursor = source
            self.count = count
        }
        while true {
            switch source.next() {
            case .value(let value):
                if _slowPath(count == capacity) {
                    self.count = count
                    reserve(Swift.max(16, capacity &* 2))
                    base = self.base
                    capacity = self.capacity
                }
                (base.unsafelyUnwrapped + count).initialize(to: value)
                count &+= 1
            case .skip: break
            case let end: return end
            }
            if source.isExhausted { return nil }
        }
    }

    /// Makes room for `minimumCapacity` elements in all.
    @inlinable
    func reserve(_ minimumCapacity: Int) {
        guard minimumCapacity > capacity else { return }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: minimumCapacity)
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = minimumCapacity
    }

    /// The element at `place`, which must be below `count`.
    @inlinable subscript(place: Int) -> Element { base.unsafelyUnwrapped[place] }

    deinit {
        guard let base else { return }
        base.deinitialize(count: count)
        base.deallocate()
    }
}

extension _Runtime {
    /// How `_Runtime.ZipCursor` makes its tuple: a type rather than a stored closure, so that the join is
    /// inlined into the loop.
    @usableFromInline protocol ZipJoin {
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
    @usableFromInline enum ZipPair<A, B>: _Runtime.ZipJoin {
        @inlinable static var extendsZip: Bool { false }

        @inlinable @inline(__always)
        static func join(_ a: A, _ b: B) -> (A, B) { (a, b) }
    }
}

extension _Runtime {
    /// `Zip3`'s tuple, from a pair and a third value.
    @usableFromInline enum ZipAppend3<X, Y, Z>: _Runtime.ZipJoin {
        @inlinable static var extendsZip: Bool { true }

        @inlinable @inline(__always)
        static func join(_ a: (X, Y), _ b: Z) -> (X, Y, Z) { (a.0, a.1, b) }
    }
}

extension _Runtime {
    /// `Zip4`'s tuple, from a triple and a fourth value.
    @usableFromInline enum ZipAppend4<X, Y, Z, W>: _Runtime.ZipJoin {
        @inlinable static var extendsZip: Bool { true }

        @inlinable @inline(__always)
        static func join(_ a: (X, Y, Z), _ b: W) -> (X, Y, Z, W) { (a.0, a.1, a.2, b) }
    }
}
