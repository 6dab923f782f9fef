// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Mirrors whichever of this publisher and `other` sends an event first (a value or its
    /// completion); the other is cancelled then. Until one has, downstream's demand goes to both.
    ///
    /// Known as `race` elsewhere. Both are subscribed, this one first, after downstream has its
    /// subscription.
    @inlinable
    public func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }

    /// Mirrors whichever of this publisher and `others` sends an event first: see `amb(_:)`.
    @inlinable
    public func amb<Other: Publisher>(with others: Other...) -> AnyPublisher<Output, Failure>
    where Other.Output == Output, Other.Failure == Failure {
        amb(with: others)
    }

    /// Mirrors whichever of this publisher and `others` sends an event first: see `amb(_:)`.
    @inlinable
    public func amb<Others: Collection>(with others: Others) -> AnyPublisher<Output, Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        others.reduce(eraseToAnyPublisher()) { race, next in race.amb(next).eraseToAnyPublisher() }
    }
}

extension Collection where Element: Publisher {
    /// Mirrors whichever of the publishers of this collection sends an event first: see
    /// `amb(_:)`. An empty collection finishes at once.
    @inlinable
    public func amb() -> AnyPublisher<Element.Output, Element.Failure> {
        guard let first else { return Empty().eraseToAnyPublisher() }
        return first.amb(with: dropFirst())
    }
}
