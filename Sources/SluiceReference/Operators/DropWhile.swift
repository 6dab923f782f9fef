// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Omits elements from the upstream publisher until an error-throwing closure returns false,
    /// before republishing all remaining elements. A thrown error fails the stream.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    ///
    /// The switch happens once: after the first `false`, the closure is no longer called and every
    /// element passes. A dropped element is replaced by a request for one more from upstream.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that omits elements until `predicate` returns false.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let gate = DropSwitch()
            upstream.subscribe(
                StageSubscription("DropWhile", downstream: subscriber) { value in
                    gate.drops { predicate(value) } ? .skip : .emit(value)
                })
        }
    }

    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns false.
    ///
    /// A thrown error cancels upstream and fails the stream.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that omits elements until `predicate` returns false or throws.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = predicate
            let gate = DropSwitch()
            upstream.subscribe(
                StageSubscription(
                    "TryDropWhile", downstream: subscriber,
                    tryStep: { value in
                        try gate.drops { try predicate(value) } ? .skip : .emit(value)
                    }))
        }
    }
}

/// The one-way switch shared by `drop(while:)` and `tryDrop(while:)`; each subscription gets
/// its own. Values arrive one at a time (signals are serial), so the flag needs no lock.
private final class DropSwitch {
    private var isDropping = true

    /// Whether this value is dropped. `predicate` is asked only until it first says no.
    func drops(_ predicate: () throws -> Bool) rethrows -> Bool {
        guard isDropping else { return false }
        if try predicate() { return true }
        isDropping = false
        return false
    }
}
