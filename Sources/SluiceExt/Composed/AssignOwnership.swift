// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// How `assign(to:on:ownership:)` holds the object it assigns to.
public enum ObjectOwnership: Sendable {
    /// Strongly, as `assign(to:on:)` does: the object lives as long as the subscription.
    case strong
    /// Weakly: once the object is gone, values are no longer assigned.
    case weak
    /// Unowned: the object must outlive the subscription.
    case unowned
}

extension Publisher where Failure == Never {
    /// Assigns each value to `keyPath` on `object`, holding the object as `ownership` says.
    ///
    /// `.weak` breaks the cycle that `assign(to:on:)` makes when the object keeps the returned
    /// cancellable.
    @inlinable
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            assign(to: keyPath, on: object)
        case .weak:
            sink { [weak object] value in object?[keyPath: keyPath] = value }
        case .unowned:
            sink { [unowned object] value in object[keyPath: keyPath] = value }
        }
    }
}
