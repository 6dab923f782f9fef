// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Publishes each value with its index: `initial` for the first value, one more for each
    /// next; each subscription counts from `initial`.
    @inlinable
    public func enumerated(initial: Int = 0) -> Publishers.Enumerated<Self> {
        Publishers.Enumerated(upstream: self, initial: initial)
    }
}

extension Publishers {
    /// A publisher that publishes each value of its upstream with its index: see
    /// ``Sluice/Publisher/enumerated(initial:)``.
    public struct Enumerated<Upstream: Publisher>: Publisher {
        public typealias Output = (index: Int, element: Upstream.Output)
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are numbered.
        public let upstream: Upstream
        /// The index of the first value.
        public let initial: Int

        /// Creates a publisher that numbers `upstream`'s values from `initial`.
        @inlinable
        public init(upstream: Upstream, initial: Int = 0) {
            self.upstream = upstream
            self.initial = initial
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The count belongs to this subscription; a subscription's values come one at a time.
            var next = initial
            upstream.map { element in
                defer { next += 1 }
                return (index: next, element: element)
            }
            .subscribe(subscriber)
        }
    }
}
