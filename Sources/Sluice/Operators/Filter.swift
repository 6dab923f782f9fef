// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes all elements that match a provided closure.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    ///
    /// A value that does not match is replaced by a request for one more from upstream.
    @frozen
    public struct Filter<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// `upstream` and `isIncluded`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// A closure that indicates whether to republish an element.
        @inlinable public var isIncluded: (Upstream.Output) -> Bool { parts().1 }

        /// Creates a publisher that republishes the elements of `upstream` that `isIncluded` accepts.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            parts = { (upstream, isIncluded) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.FilterStage(isIncluded: isIncluded)
        }

        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            let (upstream, isIncluded) = parts()
            return upstream._forEach({ isIncluded($0) ? receiveValue($0) : true }, receiveCompletion)
        }
    }
}

extension Publishers.Filter {
    /// Two filters in a row compose into one.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
}

extension _Runtime {
    @frozen
    @usableFromInline struct FilterStage<Value, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("Filter", passesSubscriptionThrough: true)
        }
        @usableFromInline let isIncluded: (Value) -> Bool

        @inlinable @inline(__always) init(isIncluded: @escaping (Value) -> Bool) { self.isIncluded = isIncluded }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> {
            isIncluded(input) ? .value(input) : .skip
        }
    }
}
