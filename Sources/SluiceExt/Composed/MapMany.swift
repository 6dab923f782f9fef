// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher where Output: Collection {
    /// Publishes each collection this publisher publishes as an array of its elements, each
    /// transformed.
    @inlinable
    public func mapMany<Result>(_ transform: @escaping (Output.Element) -> Result) -> Publishers.Map<Self, [Result]> {
        map { $0.map(transform) }
    }

    /// Publishes each collection this publisher publishes as an array of the elements that
    /// `isIncluded` accepts; a collection none of whose elements passes is published as `[]`.
    @inlinable
    public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool) -> AnyPublisher<[Output.Element], Failure>
    {
        map { $0.filter(isIncluded) }.eraseToAnyPublisher()
    }
}
