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
    }

    /// A publisher created by applying the zip function to three upstream publishers.
    @frozen
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

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
    }

    /// A publisher created by applying the zip function to four upstream publishers.
    @frozen
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

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
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
