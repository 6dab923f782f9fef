extension Publisher {
    /// Combines elements from another publisher and delivers pairs of elements as tuples.
    ///
    /// The i-th value of this publisher is paired with the i-th value of `other`.
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Combines elements from another publisher and delivers a transformed output.
    @inlinable
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
        Publishers.Map(upstream: Publishers.Zip(self, other)) { transform($0.0, $0.1) }
    }

    /// Combines elements from two other publishers and delivers groups of elements as tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Combines elements from two other publishers and delivers a transformed output.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.Zip3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }

    /// Combines elements from three other publishers and delivers groups of elements as tuples.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines elements from three other publishers and delivers a transformed output.
    @inlinable
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Map(upstream: Publishers.Zip4(self, publisher1, publisher2, publisher3)) {
            transform($0.0, $0.1, $0.2, $0.3)
        }
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to two upstream publishers.
    ///
    /// Downstream demand is requested from both upstreams. Unpaired values wait in a queue per
    /// upstream; the stream finishes when an upstream has finished and none of its values is left
    /// to pair, and fails as soon as either upstream fails, cancelling the other.
    @frozen
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public typealias _Cursor = _ZipCursor<A._Cursor, B._Cursor, _ZipPair<A.Output, B.Output>>

        /// A publisher to zip.
        public let a: A
        /// Another publisher to zip.
        public let b: B

        /// Creates a publisher that applies the zip function to two upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots2<_ZipSlot<A.Output>, _ZipSlot<B.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.start()
        }

        /// Fused for the consumers that ask for `.unlimited` at once (see `_ZipCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor {
            _ZipCursor(a._makeCursor(), b._makeCursor())
        }
    }

    /// A publisher created by applying the zip function to three upstream publishers.
    @frozen
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure
        public typealias _Cursor = _ZipCursor<Zip<A, B>._Cursor, C._Cursor, _ZipAppend3<A.Output, B.Output, C.Output>>

        /// A publisher to zip.
        public let a: A
        /// A second publisher to zip.
        public let b: B
        /// A third publisher to zip.
        public let c: C

        /// Creates a publisher that applies the zip function to three upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots3<_ZipSlot<A.Output>, _ZipSlot<B.Output>, _ZipSlot<C.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.attach(c, as: _Lane2<Slots>.self)
            core.start()
        }

        /// Fused for the consumers that ask for `.unlimited` at once (see `_ZipCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor {
            _ZipCursor(Zip(a, b)._makeCursor(), c._makeCursor())
        }
    }

    /// A publisher created by applying the zip function to four upstream publishers.
    @frozen
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure
        public typealias _Cursor = _ZipCursor<Zip3<A, B, C>._Cursor, D._Cursor, _ZipAppend4<A.Output, B.Output, C.Output, D.Output>>

        /// A publisher to zip.
        public let a: A
        /// A second publisher to zip.
        public let b: B
        /// A third publisher to zip.
        public let c: C
        /// A fourth publisher to zip.
        public let d: D

        /// Creates a publisher that applies the zip function to four upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots4<_ZipSlot<A.Output>, _ZipSlot<B.Output>, _ZipSlot<C.Output>, _ZipSlot<D.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.attach(c, as: _Lane2<Slots>.self)
            core.attach(d, as: _Lane3<Slots>.self)
            core.start()
        }

        /// Fused for the consumers that ask for `.unlimited` at once (see `_ZipCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor {
            _ZipCursor(Zip3(a, b, c)._makeCursor(), d._makeCursor())
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

/// A zip of synchronous upstreams, for a consumer whose demand is unlimited from the start.
///
/// That is what the operator does there: it subscribes its upstreams in order (each cursor is made
/// then, and looks at its end at once, as a fused subscription does), and gives downstream its
/// subscription only after; downstream's `.unlimited` then goes to each upstream in turn, and each
/// sends everything and completes inside that call, into its queue, before any tuple goes out. Then
/// a failure, if any upstream failed (the first to fail), ends the stream; otherwise the tuples go
/// out and the stream finishes. Zip3 and Zip4 are zips of zips: the order of the upstreams is the same.
@frozen
public struct _ZipCursor<A: _FusedCursor, B: _FusedCursor, Join: _ZipJoin>: _FusedCursor
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
    public init(_ a: A, _ b: B) {
        var a = a
        aWasExhausted = a.isExhausted
        var b = b
        bWasExhausted = b.isExhausted
        self.a = a
        self.b = b
    }

    @inlinable @inline(__always)
    public mutating func next() -> _FusedStep<Output, Failure> {
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
    static func collect<C: _FusedCursor>(_ cursor: inout C, wasExhausted: Bool, into values: inout [C.Output]) -> Failure?
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

    @inlinable public static var _needsUnlimitedDemand: Bool { true }

    @inlinable public var _name: StaticString { "Zip" }

    @inlinable public func _reflection(downstream: Any) -> _Reflection { _Reflection("Zip") }
}

/// How `_ZipCursor` makes its tuple: a type rather than a stored closure, so that the join is
/// inlined into the loop.
public protocol _ZipJoin {
    associatedtype A
    associatedtype B
    associatedtype Output
    static func join(_ a: A, _ b: B) -> Output
}

/// `Zip`'s tuple.
public enum _ZipPair<A, B>: _ZipJoin {
    @inlinable @inline(__always)
    public static func join(_ a: A, _ b: B) -> (A, B) { (a, b) }
}

/// `Zip3`'s tuple, from a pair and a third value.
public enum _ZipAppend3<X, Y, Z>: _ZipJoin {
    @inlinable @inline(__always)
    public static func join(_ a: (X, Y), _ b: Z) -> (X, Y, Z) { (a.0, a.1, b) }
}

/// `Zip4`'s tuple, from a triple and a fourth value.
public enum _ZipAppend4<X, Y, Z, W>: _ZipJoin {
    @inlinable @inline(__always)
    public static func join(_ a: (X, Y, Z), _ b: W) -> (X, Y, Z, W) { (a.0, a.1, a.2, b) }
}
