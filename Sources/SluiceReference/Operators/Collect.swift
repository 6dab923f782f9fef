// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the upstream
    /// publisher finishes.
    ///
    /// If the upstream publisher fails, the collected elements are dropped and the failure is
    /// passed on. The array waits for downstream demand; the memory it takes is unbounded.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that buffers items and emits them all as one array when the upstream finishes.
    public struct Collect<Upstream: Publisher>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that collects every element of `upstream` into one array.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var collected: [Upstream.Output] = []
            upstream.subscribe(
                FoldSubscription(
                    "Collect", downstream: subscriber,
                    fold: { input in
                        collected.append(input)
                        return .continue
                    }, result: { collected }, reflect: { [("count", $0?.count ?? 0)] }))
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}
