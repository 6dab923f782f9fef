// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// If upstream finishes empty, this publisher finishes without a value.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Publishes the last element of a stream that satisfies a predicate closure, after upstream
    /// finishes.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the last element of a stream that satisfies an error-throwing predicate closure,
    /// after the stream finishes.
    ///
    /// If the predicate throws, upstream is cancelled and the stream fails with the thrown error.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that waits until after the stream finishes, and then publishes the last
    /// element of the stream.
    public struct Last<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let last = Search<Output>(keepsLooking: true)
            upstream.subscribe(
                FoldSubscription(
                    "Last", downstream: subscriber,
                    fold: { last.fold($0) { _ in true } }, result: { last.match }))
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element
    /// of the stream that satisfies a predicate closure.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the last element of `upstream` to satisfy `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let last = Search<Output>(keepsLooking: true)
            let predicate = predicate
            upstream.subscribe(
                FoldSubscription(
                    "LastWhere", downstream: subscriber,
                    fold: { last.fold($0, predicate) }, result: { last.match }))
        }
    }

    /// A publisher that waits until after the stream finishes and then publishes the last element
    /// of the stream that satisfies an error-throwing predicate closure.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the last element of `upstream` to satisfy
        /// `predicate`, and fails if the predicate throws.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let last = Search<Output>(keepsLooking: true)
            let predicate = predicate
            upstream.subscribe(
                FoldSubscription(
                    "TryLastWhere", downstream: subscriber,
                    tryFold: { try last.fold($0, predicate) }, result: { last.match }))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
