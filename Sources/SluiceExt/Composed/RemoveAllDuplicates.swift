// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher where Output: Hashable {
    /// Publishes only the values not published before, in this subscription: stricter than
    /// `removeDuplicates()`, which compares each value with the one before it only.
    ///
    /// Each subscription remembers the values it has published, in a set.
    @inlinable
    public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
        Deferred {
            var seen = Set<Output>()
            return self.filter { seen.insert($0).inserted }
        }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only the values not published before, in this subscription, compared with `==`;
    /// see `removeAllDuplicates()` for `Hashable` values.
    @inlinable
    public func removeAllDuplicates() -> Deferred<Publishers.Filter<Self>> {
        removeAllDuplicates(by: ==)
    }
}

extension Publisher {
    /// Publishes only the values that `isDuplicate` says are none of those published before, in
    /// this subscription; it is called with each published value, then the new one.
    @inlinable
    public func removeAllDuplicates(
        by isDuplicate: @escaping (Output, Output) -> Bool
    ) -> Deferred<Publishers.Filter<Self>> {
        Deferred {
            var seen: [Output] = []
            return self.filter { value in
                guard !seen.contains(where: { isDuplicate($0, value) }) else { return false }
                seen.append(value)
                return true
            }
        }
    }
}
