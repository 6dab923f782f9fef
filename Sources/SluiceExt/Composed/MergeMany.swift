// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Collection where Element: Publisher {
    /// Merges the publishers of this collection: `Publishers.MergeMany` over them, erased. The
    /// stream finishes when all have finished (an empty collection at once), and fails at the
    /// first failure.
    @inlinable
    public func merge() -> AnyPublisher<Element.Output, Element.Failure> {
        Publishers.MergeMany(self).eraseToAnyPublisher()
    }
}
