// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's completion
    /// state (finished or failed).
    ///
    /// As Combine's, it hands downstream the upstream's own subscription, then asks it for `.unlimited`;
    /// downstream's requests and cancel go straight upstream. No value is ever sent, so the completion needs
    /// no demand: it is passed on whenever it comes.
    @frozen
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that passes on only the completion of `upstream`.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.subscribe(IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

/// `ignoreOutput`'s subscriber: no state; it owns downstream until upstream lets go of it.
@usableFromInline
final class IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, Introspected
where Downstream.Input == Never {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream

    @inlinable init(downstream: Downstream) { self.downstream = downstream }

    @usableFromInline var description: String { "IgnoreOutput" }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }

    @inlinable func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}
