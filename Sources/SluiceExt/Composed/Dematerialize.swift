// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Turns the events `materialize()` makes back into a stream: `.value` becomes a value,
    /// `.failure` the stream's failure, `.finished` its end.
    ///
    /// Each event, the last included, is asked of upstream as downstream's demand allows, so a
    /// completion's event beyond that demand ends nothing.
    @inlinable
    public func dematerialize() -> Publishers.Dematerialize<Self> {
        Publishers.Dematerialize(upstream: self)
    }
}

extension Publishers {
    /// A publisher that turns its upstream's events back into a stream: see
    /// ``Sluice/Publisher/dematerialize()``.
    public struct Dematerialize<Upstream: Publisher>: Publisher
    where Upstream.Output: EventConvertible, Upstream.Failure == Never {
        public typealias Output = Upstream.Output.Output
        public typealias Failure = Upstream.Output.Failure

        /// The publisher of events.
        public let upstream: Upstream

        /// Creates a publisher of the stream `upstream`'s events describe.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // One upstream event per value asked for: `.finished` ends the stream where it comes,
            // `.failure` is thrown and comes out of `mapError` as the failure it was.
            upstream.prefix(while: { element in
                if case .finished = element.event { false } else { true }
            })
            .setFailureType(to: Failure.self)
            .tryMap { element -> Output in
                switch element.event {
                case .value(let value): return value
                case .failure(let failure): throw failure
                case .finished: trap("dematerialize() ends the stream at .finished")
                }
            }
            .mapError { $0 as! Failure }
            .subscribe(subscriber)
        }
    }
}
