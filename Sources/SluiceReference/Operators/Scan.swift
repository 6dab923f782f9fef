// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to a
    /// closure along with the last value returned by the closure, and publishes each result.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Transforms elements from the upstream publisher by providing the current element to an
    /// error-throwing closure along with the last value returned by the closure, and publishes
    /// each result.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryScan<Self, T>
    {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that publishes every intermediate result of accumulating the upstream elements.
    ///
    /// Each subscription accumulates from `initialResult` afresh.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result returned by the closure, before the first element arrives.
        public let initialResult: Output
        /// A closure that takes the previous result and the next element, and returns the next result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that accumulates upstream elements from `initialResult`.
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (accumulator, next) = (Accumulator(initialResult), nextPartialResult)
            upstream.subscribe(
                StageSubscriber(
                    "Scan", downstream: subscriber,
                    reflect: { downstream, _ in [("downstream", downstream), ("result", accumulator.result)] }
                ) { .emit(accumulator.add($0, next)) })
        }
    }

    /// A publisher that publishes every intermediate result of accumulating the upstream
    /// elements with an error-throwing closure.
    ///
    /// Each subscription accumulates from `initialResult` afresh.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The previous result returned by the closure, before the first element arrives.
        public let initialResult: Output
        /// An error-throwing closure that takes the previous result and the next element, and
        /// returns the next result.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that accumulates upstream elements from `initialResult` with an
        /// error-throwing closure.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (accumulator, next) = (Accumulator(initialResult), nextPartialResult)
            upstream.subscribe(
                StageSubscription(
                    "TryScan", downstream: subscriber, family: .passingValues,
                    reflect: { downstream, status in
                        [("downstream", downstream), ("status", status), ("result", accumulator.result)]
                    }, tryStep: { .emit(try accumulator.add($0, next)) }))
        }
    }
}

/// The running result of one `scan` subscription. Each subscription gets its own, so that
/// subscribing twice starts from `initialResult` twice.
///
/// It needs no lock: upstream delivers values one at a time (serial signals), and only the
/// value path touches it. `scan` and `tryScan` share it: `add` throws only if the closure does.
private final class Accumulator<Result> {
    private(set) var result: Result

    init(_ initialResult: Result) { result = initialResult }

    /// Folds one more element in and returns the new result. A throw leaves the result as it was.
    func add<Element>(_ element: Element, _ next: (Result, Element) throws -> Result) rethrows -> Result {
        result = try next(result, element)
        return result
    }
}
