// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes elements up to the specified maximum count, then finishes.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        require(maxLength >= 0, "prefix(_:) requires a non-negative maximum length (got \(maxLength))")
        return Publishers.Output(upstream: self, range: 0..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// The index is zero-based. If upstream finishes before the element arrives, this publisher
    /// finishes without a value. `index` must be in `0 ..< Int.max`.
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        require(index >= 0, "output(at:) requires a non-negative index (got \(index))")
        require(index < .max, "output(at:) requires an index below Int.max")
        return Publishers.Output(upstream: self, range: index..<index + 1)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// A range open at the top (`3...`) runs to `Int.max`. Its bounds must not be negative.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0 ..< .max))
    }
}

extension Publishers {
    // Over a synchronous upstream it runs fused, as a stage.
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements.
    ///
    /// Demand, as in Combine: downstream requests pass straight upstream; each element before
    /// the range is dropped and replaced by a request for one more; the element at the last index
    /// of the range is delivered, then upstream is cancelled and this publisher finishes.
    @frozen
    public struct Output<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range. Neither bound may be
        /// negative.
        @inlinable
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

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.OutputStage(range: range)
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension _Runtime {
    /// `output(at:)`, `output(in:)`, `prefix(_:)`: skips up to the range, passes it, finishes after it.
    @frozen
    @usableFromInline struct OutputStage<Value, Failure: Error>: _Runtime.Stage {
        @usableFromInline let range: CountableRange<Int>
        /// The index of the next upstream element.
        @usableFromInline var index = 0

        @inlinable @inline(__always) init(range: CountableRange<Int>) { self.range = range }

        @inlinable static var _description: _Runtime.StageDescription { .init("Output") }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> {
            let current = index
            index &+= 1
            if current < range.lowerBound { return .skip }
            // Only an empty range gets past its end without completing first: there is nothing to publish.
            return current < range.upperBound ? .value(input) : .finished
        }

        /// Complete once the last index of a non-empty range has gone through.
        @inlinable var isComplete: Bool { index >= range.upperBound && index > range.lowerBound }
    }
}
