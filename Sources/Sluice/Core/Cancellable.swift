// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    /// Cancels the activity. Calling `cancel()` frees any allocated resources.
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable, wrapped in an ``AnyCancellable``, in the collection.
    @inlinable
    public func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable, wrapped in an ``AnyCancellable``, in the set.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}

// Wrapping a cancellable object costs no allocation beyond the `AnyCancellable` itself.
/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` calls `cancel()` when it is deinitialised; the wrapped action runs at most once.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    /// What cancelling runs. Both payloads are class-bound, so taking the action is a retain: an
    /// `any Cancellable` would be copied and destroyed through its value witnesses (about 70
    /// instructions per cancel, even for `.none`).
    @usableFromInline enum Action {
        case closure(() -> Void)
        case object(any Cancellable & AnyObject)
        case none

        @inlinable
        func run() {
            switch self {
            case .closure(let body): body()
            case .object(let cancellable): cancellable.cancel()
            case .none: break
            }
        }
    }

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked)
    @usableFromInline var action: Action

    /// Initializes the cancellable object with the given cancel-time closure.
    public init(_ cancel: @escaping () -> Void) { action = .closure(cancel) }

    /// A cancellable with nothing left to cancel (what `sink` returns for a stream that ended
    /// before it returned).
    @inlinable
    init() { action = .none }

    // A cancellable value, not an object, is kept by a closure.
    /// Wraps the given cancellable; cancelling this object cancels it.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        if let object = canceller as? any Cancellable & AnyObject {
            action = .object(object)
        } else {
            action = .closure(canceller.cancel)
        }
    }

    /// Wraps a cancellable object, with no dynamic cast (what `sink`, `assign` and `subscribe`
    /// return).
    @inlinable
    init(object: some Cancellable & AnyObject) { action = .object(object) }

    /// Nobody else can reach the object any more: no lock.
    deinit { action.run() }

    public func cancel() {
        lock.lock()
        let pending = action
        action = .none
        lock.unlock()
        pending.run()
    }

    /// Stores this cancellable in the collection.
    @inlinable
    public func store<C>(in collection: inout C) where C: RangeReplaceableCollection, C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this cancellable in the set.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) { set.insert(self) }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
