// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue,
    /// and finishes at the first element for which it does not.
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Republishes elements while an error-throwing predicate closure indicates publishing should
    /// continue. A thrown error fails the stream.
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// At the first element that fails the predicate, upstream is cancelled and the stream
    /// finishes; that element is not republished.
    @frozen
    public struct PrefixWhile<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The closure that determines whether publishing should continue.
        @inlinable public var predicate: (Upstream.Output) -> Bool { parts().1 }

        /// Creates a publisher that republishes elements while `predicate` returns true.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            parts = { (upstream, predicate) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.PrefixWhileStage(predicate: predicate)
        }
    }

    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    ///
    /// A thrown error cancels upstream and fails the stream.
    @frozen
    public struct TryPrefixWhile<Upstream: Publisher>: _Runtime.StageOperator {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// `upstream` and `predicate`, kept by one closure (see `Publishers.Map`).
        @usableFromInline let parts: () -> (Upstream, (Upstream.Output) throws -> Bool)

        /// The publisher from which this publisher receives elements.
        @inlinable public var upstream: Upstream { parts().0 }
        /// The error-throwing closure that determines whether publishing should continue.
        @inlinable public var predicate: (Upstream.Output) throws -> Bool { parts().1 }

        /// Creates a publisher that republishes elements while `predicate` returns true and does not throw.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            parts = { (upstream, predicate) }
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.TryPrefixWhileStage(predicate: predicate)
        }
    }
}

/// What `prefix(while:)` and `tryPrefix(while:)` make of one value. The element that ends the
/// prefix is not republished.
@inlinable @inline(__always)
func prefixWhileStep<Value, Failure: Error>(
    _ input: Value, _ predicate: (Value) throws -> Bool
) rethrows -> _Runtime.StageStep<Value, Failure> {
    try predicate(input) ? .value(input) : .finished
}

extension _Runtime {
    /// The stage of `prefix(while:)`.
    @frozen
    @usableFromInline struct PrefixWhileStage<Value, Failure: Error>: _Runtime.Stage {
        @inlinable static var _description: _Runtime.StageDescription { .init("PrefixWhile", edges: .filtering) }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream)]
        }
        @usableFromInline let predicate: (Value) -> Bool

        @inlinable @inline(__always) init(predicate: @escaping (Value) -> Bool) { self.predicate = predicate }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, Failure> {
            prefixWhileStep(input, predicate)
        }
    }
}

extension _Runtime {
    /// The stage of `tryPrefix(while:)`: a thrown error fails the stream.
    @frozen
    @usableFromInline struct TryPrefixWhileStage<Value, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @inlinable static var _description: _Runtime.StageDescription {
            .init("TryPrefixWhile", edges: .filtering)
        }
        @inlinable func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream)]
        }
        @usableFromInline let predicate: (Value) throws -> Bool

        @inlinable @inline(__always) init(predicate: @escaping (Value) throws -> Bool) { self.predicate = predicate }

        @inlinable @inline(__always)
        mutating func step(_ input: Value) -> _Runtime.StageStep<Value, any Error> {
            do { return try prefixWhileStep(input, predicate) } catch { return .failure(error) }
        }
    }
}
