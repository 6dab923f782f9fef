// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// Nothing is emitted until the upstream finishes; an upstream failure is passed on without a
    /// value.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Applies an error-throwing closure that collects each element of a stream and publishes a
    /// final result upon completion.
    ///
    /// If the closure throws, upstream is cancelled and the stream fails with the thrown error.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T)
        -> Publishers.TryReduce<Self, T>
    {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated
    /// value when the upstream publisher finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// A closure that takes the previously-accumulated value and the next element from the
        /// upstream publisher to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that folds `upstream` into one value, starting from `initial`.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let accumulator = Accumulator(initial)
            let nextPartialResult = nextPartialResult
            upstream.subscribe(
                FoldSubscription(
                    "Reduce", downstream: subscriber,
                    fold: { accumulator.fold($0, nextPartialResult) }, result: { accumulator.value }))
        }
    }

    /// A publisher that applies an error-throwing closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The initial value provided on the first invocation of the closure.
        public let initial: Output
        /// An error-throwing closure that takes the previously-accumulated value and the next
        /// element from the upstream to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that folds `upstream` into one value, starting from `initial`, and
        /// fails if the closure throws.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let accumulator = Accumulator(initial)
            let nextPartialResult = nextPartialResult
            upstream.subscribe(
                FoldSubscription(
                    "TryReduce", downstream: subscriber,
                    tryFold: { try accumulator.fold($0, nextPartialResult) }, result: { accumulator.value }))
        }
    }
}

/// The running result of one `reduce` or `tryReduce` subscription: the two differ only in
/// whether the closure may throw.
private final class Accumulator<Value> {
    private(set) var value: Value

    init(_ initial: Value) { value = initial }

    func fold<Input, Failure>(_ input: Input, _ nextPartialResult: (Value, Input) throws -> Value) rethrows -> FoldStep<
        Failure
    > {
        value = try nextPartialResult(value, input)
        return .continue
    }
}
