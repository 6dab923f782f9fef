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
        if case .strong = ownership { return assign(to: keyPath, on: object) }
        return sink(receiveValue: Assignment(keyPath, on: object, ownership).assign)
    }
}

extension Publisher where Failure == Never {
    /// Assigns each value to two key paths, on two objects, in that order, holding the objects
    /// as `ownership` says.
    @inlinable
    public func assign<Root1: AnyObject, Root2: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
        ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        let first = Assignment(keyPath1, on: object1, ownership), second = Assignment(keyPath2, on: object2, ownership)
        return sink { value in
            first.assign(value)
            second.assign(value)
        }
    }

    /// Assigns each value to three key paths, on three objects, in that order, holding the
    /// objects as `ownership` says.
    @inlinable
    public func assign<Root1: AnyObject, Root2: AnyObject, Root3: AnyObject>(
        to keyPath1: ReferenceWritableKeyPath<Root1, Output>, on object1: Root1,
        and keyPath2: ReferenceWritableKeyPath<Root2, Output>, on object2: Root2,
        and keyPath3: ReferenceWritableKeyPath<Root3, Output>, on object3: Root3,
        ownership: ObjectOwnership = .strong
    ) -> AnyCancellable {
        let first = Assignment(keyPath1, on: object1, ownership), second = Assignment(keyPath2, on: object2, ownership)
        let third = Assignment(keyPath3, on: object3, ownership)
        return sink { value in
            first.assign(value)
            second.assign(value)
            third.assign(value)
        }
    }
}

/// One target of an `assign` to several: a key path on an object, held as the ownership says.
@usableFromInline
struct Assignment<Root: AnyObject, Value> {
    @usableFromInline let assign: (Value) -> Void

    @inlinable
    init(_ keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root, _ ownership: ObjectOwnership) {
        switch ownership {
        case .strong: assign = { object[keyPath: keyPath] = $0 }
        case .weak: assign = { [weak object] in object?[keyPath: keyPath] = $0 }
        case .unowned: assign = { [unowned object] in object[keyPath: keyPath] = $0 }
        }
    }
}
