// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers.
    ///
    /// The first subscriber connects to the upstream; later subscribers join the same upstream
    /// subscription and see only what is sent after they attach (nothing is replayed).
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// A class, so that every subscriber of one `share()` reaches the same upstream subscription;
    /// equal only to itself. It is Combine's definition: a multicast through a
    /// `PassthroughSubject`, autoconnected.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let shared: Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares the output of an upstream publisher with multiple subscribers.
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = Publishers.Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            shared.receive(subscriber: subscriber)
        }

        /// Two shares are equal when they are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
    }
}
