// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Ends the stream normally where this publisher would fail: the values before the failure are
    /// published, then the stream finishes.
    @inlinable
    public func ignoreFailure() -> Publishers.Catch<Self, Empty<Output, Never>> {
        self.catch { _ in Empty() }
    }
}
