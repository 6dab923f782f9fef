// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Collection where Element: Publisher {
    /// Combines the latest values of the publishers of this collection: once each has published,
    /// publishes all their latest values, as an array in the collection's order, at every value of
    /// any of them, as Combine's `combineLatest` does for two to four. The stream finishes when all
    /// have finished, and fails at the first failure; an empty collection finishes at once.
    @inlinable
    public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
        ManyJoin.combineLatest.joined(Array(self))
    }
}

extension Publisher {
    /// Combines the latest values of this publisher and of each of `others`: see
    /// `Collection.combineLatest()`.
    @inlinable
    public func combineLatest<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).combineLatest()
    }

    /// Combines the latest values of this publisher and of each of `others`: see
    /// `Collection.combineLatest()`.
    @inlinable
    public func combineLatest<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        combineLatest(with: others)
    }
}
