// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    /// Cancels the activity. Calling `cancel()` frees any allocated resources.
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable, wrapped in an ``AnyCancellable``, in the collection.
    public func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable, wrapped in an ``AnyCancellable``, in the set.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` calls `cancel()` when it is deinitialised; the wrapped action runs at most once.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    private let lock = Lock()
    private var onCancel: (() -> Void)?

    /// Initializes the cancellable object with the given cancel-time closure.
    public init(_ cancel: @escaping () -> Void) {
        onCancel = cancel
    }

    /// Wraps the given cancellable; cancelling this object cancels it.
    public init<C: Cancellable>(_ canceller: C) {
        onCancel = canceller.cancel
    }

    deinit { cancel() }

    public func cancel() {
        let action = lock.withLock { () -> (() -> Void)? in
            defer { onCancel = nil }
            return onCancel
        }
        action?()
    }

    /// Stores this cancellable in the collection.
    public func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this cancellable in the set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
