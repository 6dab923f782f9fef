// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements.
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns false,
    /// before republishing all remaining elements. A thrown error fails the stream.
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    ///
    /// The switch happens once: after the first `false`, the closure is no longer called and every
    /// element passes. A dropped element is replaced by a request for one more from upstream.
    @frozen
    public struct DropWhile<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The closure that indicates whether to drop the element.
        @inlinable public var predicate: (Upstream.Output) -> Bool { parts().1 }

        /// Creates a publisher that omits elements until `predicate` returns false.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            parts = { (upstream, predicate) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.DropWhileStage(predicate: predicate)
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns false.
    ///
    /// A thrown error cancels upstream and fails the stream.
    @frozen
    public struct TryDropWhile<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) throws -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The error-throwing closure that indicates whether to drop the element.
        @inlinable public var predicate: (Upstream.Output) throws -> Bool { parts().1 }

        /// Creates a publisher that omits elements until `predicate` returns false or throws.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            parts = { (upstream, predicate) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryDropWhileStage(predicate: predicate)
        }
    }
}

/// The one-way switch of `drop(while:)` and `tryDrop(while:)`: the predicate is asked until it
/// first says no, and never again.
@frozen @usableFromInline
struct DropSwitch {
    @usableFromInline var isDropping = true

    @inlinable @inline(__always) init() {}

    @inlinable @inline(__always)
    mutating func drops(_ predicate: () throws -> Bool) rethrows -> Bool {
        guard isDropping else { return false }
        isDropping = try predicate()
        return isDropping
    }
}

extension _Runtime {
    /// The stage of `drop(while:)`.
    @frozen
    @usableFromInline struct DropWhileStage<Value, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription { .init("DropWhile") }
        @usableFromInline let predicate: (Value) -> Bool
        @usableFromInline var state = DropSwitch()

        @inlinable @inline(__always) init(predicate: @escaping (Value) -> Bool) { self.predicate = predicate }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> {
            let predicate = self.predicate
            return state.drops { predicate(input) } ? .skip : .value(input)
        }
    }
}

extension _Runtime {
    /// The stage of `tryDrop(while:)`: a thrown error fails the stream.
    @frozen
    @usableFromInline struct TryDropWhileStage<Value, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription { .init("TryDropWhile") }
        @usableFromInline let predicate: (Value) throws -> Bool
        @usableFromInline var state = DropSwitch()

        @inlinable @inline(__always) init(predicate: @escaping (Value) throws -> Bool) { self.predicate = predicate }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, any Error> {
            let predicate = self.predicate
            do {
                return try state.drops { try predicate(input) } ? .skip : .value(input)
            } catch {
                return .failure(error)
            }
        }
    }
}
