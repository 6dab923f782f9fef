// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided closure (`true` means "duplicate, drop it").
    @inlinable
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided error-throwing closure.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// A duplicate is replaced by a request for one more value from upstream.
    @frozen
    public struct RemoveDuplicates<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output, Upstream.Output) -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        @inlinable public var predicate: (Upstream.Output, Upstream.Output) -> Bool { parts().1 }

        /// Creates a publisher that drops each element `predicate` finds equivalent to the last published one.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            parts = { (upstream, predicate) }
        }

        /// A stage with no memory yet, for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.RemoveDuplicatesStage(predicate: predicate)
        }
    }

    /// A publisher that publishes only elements that don't match the previous element, as
    /// evaluated by an error-throwing closure.
    @frozen
    public struct TryRemoveDuplicates<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output, Upstream.Output) throws -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes of filtering.
        @inlinable public var predicate: (Upstream.Output, Upstream.Output) throws -> Bool { parts().1 }

        /// Creates a publisher that drops each element an error-throwing `predicate` finds
        /// equivalent to the last published one.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            parts = { (upstream, predicate) }
        }

        /// A stage with no memory yet, for one subscription.
        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryRemoveDuplicatesStage(predicate: predicate)
        }
    }
}

extension _Runtime {
    /// The memory of one `removeDuplicates` subscription: the element it last published.
    ///
    /// As Apple documents it, each element is compared with the previously *published* one, so a
    /// dropped duplicate does not replace it; the first element is published without calling the
    /// predicate. Both stages use it; `admit` throws only if the predicate does.
    @frozen
    @usableFromInline struct LastPublished<Value> {
        @usableFromInline var last: Value?

        @inlinable @inline(__always) init() { last = nil }

        /// Whether `element` should be published, remembering it if so.
        @inlinable @inline(__always)
        mutating func admit(_ element: Value, unless isDuplicate: (Value, Value) throws -> Bool) rethrows -> Bool {
            if let last, try isDuplicate(last, element) { return false }
            last = element
            return true
        }
    }
}

extension _Runtime {
    /// `removeDuplicates`' stage.
    @frozen
    @usableFromInline struct RemoveDuplicatesStage<Value, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("RemoveDuplicates", edges: .filtering)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("last", memory.last as Any)]
        }
        @usableFromInline var memory = _Runtime.LastPublished<Value>()
        @usableFromInline let predicate: (Value, Value) -> Bool

        @inlinable @inline(__always) init(predicate: @escaping (Value, Value) -> Bool) { self.predicate = predicate }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> {
            memory.admit(input, unless: predicate) ? .value(input) : .skip
        }
    }
}

extension _Runtime {
    /// `tryRemoveDuplicates`' stage: as `removeDuplicates`', and a throw fails the chain.
    @frozen
    @usableFromInline struct TryRemoveDuplicatesStage<Value, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("TryRemoveDuplicates", edges: .filtering)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("last", memory.last as Any)]
        }
        @usableFromInline var memory = _Runtime.LastPublished<Value>()
        @usableFromInline let predicate: (Value, Value) throws -> Bool

        @inlinable @inline(__always) init(predicate: @escaping (Value, Value) throws -> Bool) {
            self.predicate = predicate
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, any Error> {
            .catching { try memory.admit(input, unless: predicate) ? .value(input) : .skip }
        }
    }
}
