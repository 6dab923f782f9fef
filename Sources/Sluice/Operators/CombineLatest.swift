extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from either
    /// publisher, once both have produced a value: the latest value of each.
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output from either
    /// publisher, with the latest value of each.
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest(self, other)) { transform($0.0, $0.1) }
    }

    /// Subscribes to two additional publishers and publishes a tuple upon receiving output from any of them.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Subscribes to two additional publishers and invokes a closure upon receiving output from any of them.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest3(self, publisher1, publisher2)) { transform($0.0, $0.1, $0.2) }
    }

    /// Subscribes to three additional publishers and publishes a tuple upon receiving output from any of them.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Subscribes to three additional publishers and invokes a closure upon receiving output from any of them.
    @inlinable
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Map(upstream: Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)) {
            transform($0.0, $0.1, $0.2, $0.3)
        }
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// Downstream demand is requested from both upstreams. Each upstream's latest value is kept;
    /// once both have one, a tuple goes out for each new value while downstream has demand (without
    /// demand only the latest tuple is kept, for the next request). The stream finishes when both
    /// upstreams have finished, and fails as soon as either fails, cancelling the other.
    @frozen
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that combines the latest elements of two publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots2<_LatestSlot<A.Output>, _LatestSlot<B.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.start()
        }
    }

    /// A publisher that receives and combines the latest elements from three publishers.
    @frozen
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C

        /// Creates a publisher that combines the latest elements of three publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots3<_LatestSlot<A.Output>, _LatestSlot<B.Output>, _LatestSlot<C.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.attach(c, as: _Lane2<Slots>.self)
            core.start()
        }
    }

    /// A publisher that receives and combines the latest elements from four publishers.
    @frozen
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D

        /// Creates a publisher that combines the latest elements of four publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = _Slots4<_LatestSlot<A.Output>, _LatestSlot<B.Output>, _LatestSlot<C.Output>, _LatestSlot<D.Output>>
            let core = _FanInCore<Slots, S>(downstream: subscriber)
            core.attach(a, as: _Lane0<Slots>.self)
            core.attach(b, as: _Lane1<Slots>.self)
            core.attach(c, as: _Lane2<Slots>.self)
            core.attach(d, as: _Lane3<Slots>.self)
            core.start()
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
