// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// What the `try` operators share: a thrown error becomes the chain's failure.
//
// `tryMap`, `tryFilter`, `tryCompactMap`, `tryScan` and `tryRemoveDuplicates` are stages like their
// plain forms; their step runs the closure through `catching`, so a throw is an ordinary
// `.failure` step. Both paths then do what Combine does: the fused loop stops and fails the
// subscriber; `StageSubscription` cancels upstream first and then fails downstream.

extension _Runtime.StageStep where Failure == any Error {
    /// The step `body` decides, or `.failure` with whatever it threw.
    @inlinable @inline(__always)
    static func catching(_ body: () throws -> Self) -> Self {
        do {
            return try body()
        } catch {
            return .failure(error)
        }
    }
}
