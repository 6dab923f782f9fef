// Merge, Merge3 … Merge8: every arity is a thin front for one fan-in (Merge+FanIn.swift), as is MergeMany
// (MergeMany.swift); a merge merged with more publishers is in Merge+Chaining.swift.

extension Publisher {
    /// Combines elements from this publisher with those from another publisher, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Merge(self, other)
    }

    /// Combines elements from this publisher with those from 2 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Combines elements from this publisher with those from 3 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }

    /// Combines elements from this publisher with those from 4 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Combines elements from this publisher with those from 5 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F) -> Publishers.Merge6<Self, B, C, D, E, F>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Combines elements from this publisher with those from 6 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Combines elements from this publisher with those from 7 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output, G.Failure == H.Failure, G.Output == H.Output {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }

    /// Combines elements from this publisher with those from another publisher of the same type,
    /// delivering an interleaved sequence of elements.
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B

        /// Creates a publisher that merges two upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 2)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _Unfusable<Output, Failure>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _Unfusable())) }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C

        /// Creates a publisher that merges three upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 3)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _Unfusable<Output, Failure>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _Unfusable()))) }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to four upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D

        /// Creates a publisher that merges four upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 4)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
            d.subscribe(_MergeInlet(fanIn: fanIn, index: 3))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _MergeCursor<D, _Unfusable<Output, Failure>>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _MergeCursor(later: d, then: _Unfusable())))) }
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to five upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E

        /// Creates a publisher that merges five upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 5)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
            d.subscribe(_MergeInlet(fanIn: fanIn, index: 3))
            e.subscribe(_MergeInlet(fanIn: fanIn, index: 4))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _MergeCursor<D, _MergeCursor<E, _Unfusable<Output, Failure>>>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand && E._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _MergeCursor(later: d, then: _MergeCursor(later: e, then: _Unfusable()))))) }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to six upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F

        /// Creates a publisher that merges six upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 6)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
            d.subscribe(_MergeInlet(fanIn: fanIn, index: 3))
            e.subscribe(_MergeInlet(fanIn: fanIn, index: 4))
            f.subscribe(_MergeInlet(fanIn: fanIn, index: 5))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _MergeCursor<D, _MergeCursor<E, _MergeCursor<F, _Unfusable<Output, Failure>>>>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand && E._fusesUnderAnyDemand && F._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _MergeCursor(later: d, then: _MergeCursor(later: e, then: _MergeCursor(later: f, then: _Unfusable())))))) }
    }
}

extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to seven upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge7<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F
        /// The seventh publisher to merge.
        public let g: G

        /// Creates a publisher that merges seven upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 7)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
            d.subscribe(_MergeInlet(fanIn: fanIn, index: 3))
            e.subscribe(_MergeInlet(fanIn: fanIn, index: 4))
            f.subscribe(_MergeInlet(fanIn: fanIn, index: 5))
            g.subscribe(_MergeInlet(fanIn: fanIn, index: 6))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _MergeCursor<D, _MergeCursor<E, _MergeCursor<F, _MergeCursor<G, _Unfusable<Output, Failure>>>>>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand && E._fusesUnderAnyDemand && F._fusesUnderAnyDemand && G._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _MergeCursor(later: d, then: _MergeCursor(later: e, then: _MergeCursor(later: f, then: _MergeCursor(later: g, then: _Unfusable()))))))) }
    }
}

extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to eight upstream publishers.
    ///
    /// See `MergeMany` for the demand each upstream is asked for and when the merge completes.
    @frozen
    public struct Merge8<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output, G.Failure == H.Failure, G.Output == H.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first publisher to merge.
        public let a: A
        /// The second publisher to merge.
        public let b: B
        /// The third publisher to merge.
        public let c: C
        /// The fourth publisher to merge.
        public let d: D
        /// The fifth publisher to merge.
        public let e: E
        /// The sixth publisher to merge.
        public let f: F
        /// The seventh publisher to merge.
        public let g: G
        /// The eighth publisher to merge.
        public let h: H

        /// Creates a publisher that merges eight upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: 8)
            subscriber.receive(subscription: fanIn)
            a.subscribe(_MergeInlet(fanIn: fanIn, index: 0))
            b.subscribe(_MergeInlet(fanIn: fanIn, index: 1))
            c.subscribe(_MergeInlet(fanIn: fanIn, index: 2))
            d.subscribe(_MergeInlet(fanIn: fanIn, index: 3))
            e.subscribe(_MergeInlet(fanIn: fanIn, index: 4))
            f.subscribe(_MergeInlet(fanIn: fanIn, index: 5))
            g.subscribe(_MergeInlet(fanIn: fanIn, index: 6))
            h.subscribe(_MergeInlet(fanIn: fanIn, index: 7))
        }

        public typealias _Cursor = _MergeCursor<A, _MergeCursor<B, _MergeCursor<C, _MergeCursor<D, _MergeCursor<E, _MergeCursor<F, _MergeCursor<G, _MergeCursor<H, _Unfusable<Output, Failure>>>>>>>>>

        /// Fused for the consumers that ask for `.unlimited` at once (see `_MergeCursor`).
        @inlinable public static var _isFusable: Bool { A._fusesUnderAnyDemand && B._fusesUnderAnyDemand && C._fusesUnderAnyDemand && D._fusesUnderAnyDemand && E._fusesUnderAnyDemand && F._fusesUnderAnyDemand && G._fusesUnderAnyDemand && H._fusesUnderAnyDemand }

        @inlinable @inline(__always)
        public func _makeCursor() -> _Cursor { _MergeCursor(first: a, then: _MergeCursor(later: b, then: _MergeCursor(later: c, then: _MergeCursor(later: d, then: _MergeCursor(later: e, then: _MergeCursor(later: f, then: _MergeCursor(later: g, then: _MergeCursor(later: h, then: _Unfusable())))))))) }
    }
}

extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
