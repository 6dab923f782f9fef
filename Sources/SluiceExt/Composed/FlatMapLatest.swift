// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Transforms each value into a publisher and republishes only the most recent one's values:
    /// a new value cancels the publisher made for the value before it.
    ///
    /// `map(transform).switchToLatest()`, in one name.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }
}
