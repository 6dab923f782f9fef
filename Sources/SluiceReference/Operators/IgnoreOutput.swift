// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
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
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that passes on only the completion of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

/// `ignoreOutput`'s subscriber. As Combine's, it hands downstream the upstream's own subscription,
/// then asks it for `.unlimited`, and passes every completion on whenever it comes. No state: it
/// holds downstream until upstream lets go of it.
private final class IgnoreOutputSubscriber<Input, Downstream: Subscriber>:
    Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Never {
    typealias Failure = Downstream.Failure

    private let downstream: Downstream

    init(downstream: Downstream) { self.downstream = downstream }

    var description: String { "IgnoreOutput" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) { downstream.receive(completion: completion) }
}
