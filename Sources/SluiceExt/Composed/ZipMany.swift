// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Collection where Element: Publisher {
    /// Zips the publishers of this collection: publishes, as an array in the collection's order,
    /// each one's first value, then each one's second, and so on, as Combine's `zip` does for two
    /// to four. An empty collection finishes at once.
    @inlinable
    public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
        ManyJoin.zip.joined(Array(self))
    }
}

extension Publisher {
    /// Zips this publisher with each of `others`: see `Collection.zip()`.
    @inlinable
    public func zip<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).zip()
    }

    /// Zips this publisher with each of `others`: see `Collection.zip()`.
    @inlinable
    public func zip<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        zip(with: others)
    }
}
