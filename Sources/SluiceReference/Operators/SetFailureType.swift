// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    ///
    /// Only a publisher that cannot fail can be given a failure type: nothing is ever converted.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that appears to send a specified failure type, but never fails.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that declares `Failure` over an upstream that cannot fail.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                StageSubscriber(
                    "SetFailureType", downstream: subscriber, step: { .emit($0) },
                    mapCompletion: { completion in
                        switch completion {
                        case .finished: return .finished
                        case .failure(let never): switch never {}
                        }
                    }))
        }
    }
}

extension Publishers.SetFailureType {
    /// Setting the failure type again replaces the first one: one `SetFailureType` remains.
    public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
        Publishers.SetFailureType<Upstream, E>(upstream: upstream)
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}
