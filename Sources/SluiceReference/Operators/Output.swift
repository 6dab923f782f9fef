// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        require(maxLength >= 0, "prefix(_:) requires a non-negative maximum length")
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// The index is zero-based. If upstream finishes before the element arrives, this publisher
    /// finishes without a value. `index` must be in `0 ..< Int.max`.
    public func output(at index: Int) -> Publishers.Output<Self> {
        require(index >= 0, "output(at:) requires a non-negative index (got \(index))")
        require(index < .max, "output(at:) requires an index below Int.max")
        return Publishers.Output(upstream: self, range: index..<index + 1)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// A range open at the top (`3...`) runs to `Int.max`. Its bounds must not be negative.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0 ..< .max))
    }
}

extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements.
    ///
    /// Demand, as in Combine: downstream requests pass straight upstream; each element before
    /// the range is dropped and replaced by a request for one more; the element at the last index
    /// of the range is delivered, then upstream is cancelled and this publisher finishes.
    public struct Output<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range. Neither bound may be
        /// negative.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            require(
                range.lowerBound >= 0, "Publishers.Output requires a non-negative lower bound (got \(range.lowerBound))"
            )
            require(
                range.upperBound >= 0, "Publishers.Output requires a non-negative upper bound (got \(range.upperBound))"
            )
            self.upstream = upstream
            self.range = range
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let range = range
            var index = 0
            upstream.subscribe(
                StageSubscription("Output", downstream: subscriber) { input in
                    let current = index
                    index += 1
                    if current < range.lowerBound { return .skip }
                    if current == range.upperBound - 1 { return .emitThenFinish(input) }
                    if current < range.upperBound { return .emit(input) }
                    // Only an empty range gets here: there is nothing to publish.
                    return .finish
                })
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}
