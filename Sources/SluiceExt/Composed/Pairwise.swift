// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Publishes each value with the one before it, as a pair, from the second value on.
    ///
    /// The first value makes no pair; it is asked for again, so downstream's demand counts pairs.
    @inlinable
    public func pairwise() -> Publishers.CompactMap<Publishers.Scan<Self, (Output?, Output?)>, (Output, Output)> {
        scan((nil, nil)) { pair, value in (pair.1, value) }
            .compactMap { previous, current in
                guard let previous, let current else { return nil }
                return (previous, current)
            }
    }
}
