// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Publishes every event of this publisher as a value that cannot fail: each value as
    /// `.value`, then the completion as `.finished` or `.failure`, after which the stream finishes.
    ///
    /// The completion's event is a value like the others: it waits for downstream's demand.
    @inlinable
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Publishes the values of the events this publisher publishes, and leaves out their failures.
    @inlinable
    public func values() -> AnyPublisher<Output.Output, Never> {
        compactMap { element in
            guard case .value(let value) = element.event else { return nil }
            return value
        }
        .eraseToAnyPublisher()
    }

    /// Publishes the failures of the events this publisher publishes, and leaves out their values.
    @inlinable
    public func failures() -> AnyPublisher<Output.Failure, Never> {
        compactMap { element in
            guard case .failure(let failure) = element.event else { return nil }
            return failure
        }
        .eraseToAnyPublisher()
    }
}

extension Publishers {
    /// A publisher that publishes its upstream's events as values: see ``Sluice/Publisher/materialize()``.
    public struct Materialize<Upstream: Publisher>: Publisher {
        public typealias Output = Event<Upstream.Output, Upstream.Failure>
        public typealias Failure = Never

        /// The publisher whose events are published.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s events.
        @inlinable
        public init(upstream: Upstream) { self.upstream = upstream }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.map { Output.value($0) }
                .append(.finished)
                .catch { Just(.failure($0)) }
                .subscribe(subscriber)
        }
    }
}
