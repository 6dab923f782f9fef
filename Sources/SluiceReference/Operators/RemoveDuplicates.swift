// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided closure (`true` means "duplicate, drop it").
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided error-throwing closure.
    ///
    /// If the closure throws, upstream is cancelled and the error ends the stream.
    public func tryRemoveDuplicates(by predicate: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryRemoveDuplicates<Self>
    {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// A duplicate is replaced by a request for one more value from upstream.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that drops each element `predicate` finds equivalent to the last published one.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (previous, predicate) = (PreviousElement<Output>(), predicate)
            upstream.subscribe(
                StageSubscription(
                    "RemoveDuplicates", downstream: subscriber, family: .trapping,
                    reflect: { downstream, _ in [("downstream", downstream), ("last", previous.last as Any)] }
                ) { previous.step($0, predicate) })
        }
    }

    /// A publisher that publishes only elements that don't match the previous element, as
    /// evaluated by an error-throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that drops each element an error-throwing `predicate` finds
        /// equivalent to the last published one.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (previous, predicate) = (PreviousElement<Output>(), predicate)
            upstream.subscribe(
                StageSubscription(
                    "TryRemoveDuplicates", downstream: subscriber, family: .trapping,
                    reflect: { downstream, _ in [("downstream", downstream), ("last", previous.last as Any)] },
                    tryStep: { try previous.step($0, predicate) }))
        }
    }
}

/// The memory of one `removeDuplicates` subscription: the element it last published.
///
/// As Apple documents it, each element is compared with the previously *published* one, so a
/// dropped duplicate does not replace it. The first element is always published, without
/// calling the predicate. No lock: only the serial value path touches it. Both operators share
/// it: `step` throws only if the predicate does.
private final class PreviousElement<Value> {
    private(set) var last: Value?

    func step<Failure>(_ element: Value, _ isDuplicate: (Value, Value) throws -> Bool) rethrows -> StageStep<
        Value, Failure
    > {
        if let last, try isDuplicate(last, element) {
            return .skip
        }
        last = element
        return .emit(element)
    }
}
