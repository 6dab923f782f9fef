// Merge, Merge3 … Merge8 and MergeMany: every arity is a thin front for one fan-in.

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
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Merge {
    /// Merges this publisher's upstreams and another publisher into one `Merge3`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
    where B.Failure == P.Failure, B.Output == P.Output {
        Publishers.Merge3(a, b, other)
    }

    /// Merges this publisher's upstreams and 2 other publishers into one `Merge4`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge4<A, B, Z, Y>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge4(a, b, z, y)
    }

    /// Merges this publisher's upstreams and 3 other publishers into one `Merge5`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge5<A, B, Z, Y, X>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge5(a, b, z, y, x)
    }

    /// Merges this publisher's upstreams and 4 other publishers into one `Merge6`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge6<A, B, Z, Y, X, W>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Merges this publisher's upstreams and 5 other publishers into one `Merge7`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output {
        Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Merges this publisher's upstreams and 6 other publishers into one `Merge8`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output, V.Failure == U.Failure, V.Output == U.Output {
        Publishers.Merge8(a, b, z, y, x, w, v, u)
    }

}

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
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Merge3 {
    /// Merges this publisher's upstreams and another publisher into one `Merge4`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge4<A, B, C, P>
    where C.Failure == P.Failure, C.Output == P.Output {
        Publishers.Merge4(a, b, c, other)
    }

    /// Merges this publisher's upstreams and 2 other publishers into one `Merge5`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge5<A, B, C, Z, Y>
    where C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge5(a, b, c, z, y)
    }

    /// Merges this publisher's upstreams and 3 other publishers into one `Merge6`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge6<A, B, C, Z, Y, X>
    where C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Merges this publisher's upstreams and 4 other publishers into one `Merge7`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Merges this publisher's upstreams and 5 other publishers into one `Merge8`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output, W.Failure == V.Failure, W.Output == V.Output {
        Publishers.Merge8(a, b, c, z, y, x, w, v)
    }

}

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
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers.Merge4 {
    /// Merges this publisher's upstreams and another publisher into one `Merge5`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge5<A, B, C, D, P>
    where D.Failure == P.Failure, D.Output == P.Output {
        Publishers.Merge5(a, b, c, d, other)
    }

    /// Merges this publisher's upstreams and 2 other publishers into one `Merge6`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge6(a, b, c, d, z, y)
    }

    /// Merges this publisher's upstreams and 3 other publishers into one `Merge7`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge7(a, b, c, d, z, y, x)
    }

    /// Merges this publisher's upstreams and 4 other publishers into one `Merge8`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W) -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output {
        Publishers.Merge8(a, b, c, d, z, y, x, w)
    }

}

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
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers.Merge5 {
    /// Merges this publisher's upstreams and another publisher into one `Merge6`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where E.Failure == P.Failure, E.Output == P.Output {
        Publishers.Merge6(a, b, c, d, e, other)
    }

    /// Merges this publisher's upstreams and 2 other publishers into one `Merge7`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Merges this publisher's upstreams and 3 other publishers into one `Merge8`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X) -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output, Y.Failure == X.Failure, Y.Output == X.Output {
        Publishers.Merge8(a, b, c, d, e, z, y, x)
    }

}

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
    }
}

extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers.Merge6 {
    /// Merges this publisher's upstreams and another publisher into one `Merge7`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where F.Failure == P.Failure, F.Output == P.Output {
        Publishers.Merge7(a, b, c, d, e, f, other)
    }

    /// Merges this publisher's upstreams and 2 other publishers into one `Merge8`.
    @inlinable
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where F.Failure == Z.Failure, F.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge8(a, b, c, d, e, f, z, y)
    }

}

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
    }
}

extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers.Merge7 {
    /// Merges this publisher's upstreams and another publisher into one `Merge8`.
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where G.Failure == P.Failure, G.Output == P.Output {
        Publishers.Merge8(a, b, c, d, e, f, g, other)
    }

}

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
    }
}

extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    ///
    /// Every merge (`Merge` … `Merge8` too) runs on the same fan-in. Downstream receives the
    /// subscription first, then the upstreams are subscribed in order. While downstream's demand is
    /// unlimited each upstream is asked for `.unlimited`; otherwise each is asked for one value at a
    /// time, and again (`.max(1)`) once its value has been delivered. A value that arrives while
    /// downstream has no demand waits in its upstream's queue; waiting values go out in upstream
    /// order when demand comes. Delivery is serial even when upstreams send from several threads.
    /// The merge finishes once every upstream has finished (after any waiting values); a failure of
    /// any upstream cancels all of them and fails the merge.
    @frozen
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher that merges an arbitrary number of upstream publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges a sequence of upstream publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            publishers = Array(upstream)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let fanIn = _MergeFanIn<S>(downstream: subscriber, upstreamCount: publishers.count)
            subscriber.receive(subscription: fanIn)
            var index = 0
            for publisher in publishers {
                publisher.subscribe(_MergeInlet(fanIn: fanIn, index: index))
                index += 1
            }
            // No upstream at all: all of them (none) have finished.
            if publishers.isEmpty { fanIn.finishEmpty() }
        }

        /// Combines elements from this publisher with those from another publisher of the same type.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            var all = publishers
            all.append(other)
            return Publishers.MergeMany(all)
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

/// The subscriber a merge hands to one upstream: the fan-in and the upstream's position. It
/// carries the fan-in's identifier, as Combine's inner subscribers do.
@frozen @usableFromInline
struct _MergeInlet<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let fanIn: _MergeFanIn<Downstream>
    @usableFromInline let index: Int

    @inlinable
    init(fanIn: _MergeFanIn<Downstream>, index: Int) {
        self.fanIn = fanIn
        self.index = index
    }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(fanIn) }

    @inlinable
    func receive(subscription: any Subscription) { fanIn.attach(subscription, at: index) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        fanIn.lifetime.call(fanIn) { fanIn.offer(input, from: index) } ?? .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        fanIn.lifetime.call(fanIn) { fanIn.end(completion, from: index) }
    }
}

/// One upstream's place in the fan-in: its subscription while live, and the values of it that wait
/// for demand or for another thread's delivery to end. The queue keeps its storage when it empties,
/// so a steady stream of waiting values allocates nothing.
@frozen @usableFromInline
struct _MergeLane<Value> {
    @usableFromInline var subscription: (any Subscription)?
    /// False before the subscription arrives and after the upstream has ended.
    @usableFromInline var isLive = false
    @usableFromInline var hasEnded = false
    @usableFromInline var queue: ContiguousArray<Value> = []
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { head == queue.count }

    @inlinable
    mutating func pop() -> Value {
        let value = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return value
    }
}

/// The fan-in behind every merge: any number of upstreams, one downstream.
///
/// One inline `Lock` guards every field below and is never held while calling out. Delivery is
/// serial without blocking anyone: the call that finds nobody delivering takes the `delivering`
/// turn, calls downstream, and before giving the turn back delivers whatever arrived meanwhile
/// (from other threads, or re-entrantly) and was queued on its lane. So a value costs two
/// uncontended lock round trips and no allocation, and a synchronous upstream's drain loop runs
/// straight through. `owed` is downstream's outstanding demand as a count, `UInt.max` meaning
/// unlimited.
@usableFromInline
final class _MergeFanIn<Downstream: Subscriber>: Subscription, Introspected {
    @usableFromInline typealias Value = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline static var running: UInt8 { 0 }
    /// Every upstream finished: `.finished` goes out after the last waiting value.
    @usableFromInline static var finishing: UInt8 { 1 }
    /// An upstream failed during another call's delivery; that call sends `failure` on.
    @usableFromInline static var failing: UInt8 { 2 }
    @usableFromInline static var done: UInt8 { 3 }

    /// Used only inside calls through `lifetime`: the inlets' signals and the drains.
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let lifetime: Lifetime
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var lanes: ContiguousArray<_MergeLane<Value>>
    @exclusivity(unchecked)
    @usableFromInline var owed: UInt = 0
    @exclusivity(unchecked)
    @usableFromInline var delivering = false
    @exclusivity(unchecked)
    @usableFromInline var phase: UInt8 = 0
    @exclusivity(unchecked)
    @usableFromInline var failure: Failure?
    /// Values waiting across all lanes: the common case (none) is one comparison.
    @exclusivity(unchecked)
    @usableFromInline var waitingCount = 0
    @exclusivity(unchecked)
    @usableFromInline var unfinished: Int

    @inlinable
    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: _MergeFanIn.self).downstream.release() }
        lanes = ContiguousArray(repeating: _MergeLane(), count: upstreamCount)
        unfinished = upstreamCount
    }

    @usableFromInline var description: String { "Merge" }

    @inlinable var isUnlimited: Bool { owed == .max }

    // MARK: Upstreams

    @inlinable
    func attach(_ subscription: any Subscription, at index: Int) {
        lock.lock()
        guard phase == Self.running, !lanes[index].isLive, !lanes[index].hasEnded else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lanes[index].isLive = true
        lanes[index].subscription = subscription
        let everything = isUnlimited
        lock.unlock()
        // As Combine: one value at a time unless downstream wants everything.
        subscription.request(everything ? .unlimited : .max(1))
    }

    @inlinable
    func offer(_ value: Value, from index: Int) -> Subscribers.Demand {
        lock.lock()
        guard phase == Self.running, lanes[index].isLive else {
            lock.unlock()
            return .none
        }
        if delivering || owed == 0 {
            lanes[index].queue.append(value)
            waitingCount += 1
            lock.unlock()
            return .none
        }
        delivering = true
        if owed != .max { owed -= 1 }
        lock.unlock()
        let more = downstream.with { $0.receive(value) }
        lock.lock()
        if more != .none { owed = more._adding(to: owed) }
        // The upstream may send its next value, unless it was asked for everything already or the
        // stream or this upstream ended meanwhile.
        let answer: Subscribers.Demand = !isUnlimited && phase == Self.running && lanes[index].isLive ? .max(1) : .none
        if waitingCount == 0 && phase == Self.running {
            delivering = false
            lock.unlock()
        } else {
            drainHoldingLock()
        }
        return answer
    }

    @inlinable
    func end(_ completion: Subscribers.Completion<Failure>, from index: Int) {
        lock.lock()
        guard phase == Self.running, lanes[index].isLive else {
            lock.unlock()
            return
        }
        if case .failure(let error) = completion {
            let live = cutLanes()
            if delivering {
                phase = Self.failing
                failure = error
                lock.unlock()
                for upstream in live { upstream.cancel() }
            } else {
                phase = Self.done
                lock.unlock()
                // Combine cancels every upstream, the failed one included.
                for upstream in live { upstream.cancel() }
                if lifetime.end() { downstream.with { $0.receive(completion: completion) } }
            }
            return
        }
        lanes[index].isLive = false
        lanes[index].hasEnded = true
        lanes[index].subscription = nil
        unfinished -= 1
        guard unfinished == 0 else {
            lock.unlock()
            return
        }
        phase = Self.finishing
        if delivering {
            lock.unlock()
        } else {
            delivering = true
            drainHoldingLock()
        }
    }

    /// A merge of no upstreams finishes as soon as it is subscribed.
    @usableFromInline
    func finishEmpty() {
        lifetime.call(self) { finishEmptyLive() }
    }

    @usableFromInline
    func finishEmptyLive() {
        lock.lock()
        guard phase == Self.running, !delivering else {
            lock.unlock()
            return
        }
        phase = Self.finishing
        delivering = true
        drainHoldingLock()
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        lifetime.call(self) { requestLive(demand) }
    }

    /// `request`, inside a `lifetime` call (it may drain).
    @inlinable
    func requestLive(_ demand: Subscribers.Demand) {
        lock.lock()
        guard phase == Self.running || phase == Self.finishing, !isUnlimited else {
            lock.unlock()
            return
        }
        owed = demand._adding(to: owed)
        var everything: ContiguousArray<any Subscription> = []
        if isUnlimited {
            // From now on every upstream is asked for everything; until now each had one value
            // outstanding or waiting.
            for lane in lanes where lane.isLive { everything.append(lane.subscription!) }
        }
        if delivering || (waitingCount == 0 && phase == Self.running) {
            lock.unlock()
            for upstream in everything { upstream.request(.unlimited) }
            return
        }
        delivering = true
        if everything.isEmpty {
            drainHoldingLock()
            return
        }
        // Holding the turn while asking: whatever upstream sends from inside the request queues up
        // behind the values that already wait.
        lock.unlock()
        for upstream in everything { upstream.request(.unlimited) }
        lock.lock()
        drainHoldingLock()
    }

    @inlinable
    func cancel() {
        lock.lock()
        guard phase != Self.done else {
            lock.unlock()
            return
        }
        phase = Self.done
        failure = nil
        let live = cutLanes()
        lock.unlock()
        for upstream in live { upstream.cancel() }
        lifetime.end(self)
    }

    // MARK: Delivery

    /// Ends every lane, dropping waiting values; returns the subscriptions to cancel. Lock held.
    @inlinable
    func cutLanes() -> ContiguousArray<any Subscription> {
        var live: ContiguousArray<any Subscription> = []
        for index in lanes.indices {
            if lanes[index].isLive, let upstream = lanes[index].subscription { live.append(upstream) }
            lanes[index] = _MergeLane()
            lanes[index].hasEnded = true
        }
        waitingCount = 0
        return live
    }

    /// Runs inside a `lifetime` call, with the `delivering` turn and the lock held; returns with the
    /// lock released and the turn given back. Sends waiting values, lowest lane first, while there is demand, then a
    /// completion that waits for them.
    @usableFromInline
    func drainHoldingLock() {
        while true {
            if phase == Self.done {
                delivering = false
                lock.unlock()
                return
            }
            if phase == Self.failing {
                phase = Self.done
                delivering = false
                let error = failure!
                failure = nil
                lock.unlock()
                if lifetime.end() { downstream.with { $0.receive(completion: .failure(error)) } }
                return
            }
            if waitingCount > 0 && owed > 0 {
                var index = 0
                while lanes[index].isEmpty { index += 1 }
                let value = lanes[index].pop()
                waitingCount -= 1
                if owed != .max { owed -= 1 }
                lock.unlock()
                let more = downstream.with { $0.receive(value) }
                lock.lock()
                if more != .none { owed = more._adding(to: owed) }
                // The value was answered with `.none` when it came: its upstream may send the next.
                if phase == Self.running, !isUnlimited, lanes[index].isLive, let upstream = lanes[index].subscription {
                    lock.unlock()
                    upstream.request(.max(1))
                    lock.lock()
                }
                continue
            }
            if phase == Self.finishing && waitingCount == 0 {
                phase = Self.done
                delivering = false
                lock.unlock()
                if lifetime.end() { downstream.with { $0.receive(completion: .finished) } }
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }
}
