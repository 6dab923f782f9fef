// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// Lifetimes: the pieces every subscription uses to let go of what it holds at the end of its
// stream. `Releasable` holds it and lets hot paths use it without a retain; `EndGate` decides who
// releases it, and when, so that a cancel from another thread never frees what a running call uses;
// `Lifetime` puts a gate together with the owner's specialised release. See "Lifetimes" in
// `RuntimeContract.md`.

/// Something a subscription holds until its stream ends (its subscriber, its operator's closures or
/// state), used in place and let go of once.
///
/// Reach it through `with`: the access is a modify access on the class's stored property, which
/// lets the optimizer call through a class reference or a closure inside without a retain and a
/// release around the call (a plain read of a `var` must retain what it calls, as the call could
/// reassign the property). So the owner's stored property must be `@exclusivity(unchecked) var`, and
/// the owner must make sure, by its gate or its lock, that `with` runs only while the value is held
/// and never during `release()`, and that two `with` never overlap (it is a modify access: calls
/// that may run at once, from two threads, read `value` instead, and pay the retain).
///
/// `released` carries a payload only so that the enum keeps its case in a tag byte of its own,
/// rather than in bit patterns the value never uses: the owner's deinit runs unspecialised (it is a
/// generic class's), and there telling the cases apart then reads that byte, where for a long run
/// of composed stages it would ask each nested type in turn.
@frozen @usableFromInline
package enum Releasable<Value> {
    case held(Value)
    case released(UInt8)

    @inlinable package init(_ value: consuming Value) { self = .held(value) }

    /// Runs `body` on the held value, in place. Only while it is held (see above): the payload of
    /// `held` is at the start of the enum's storage, so no case check is needed.
    @inlinable @inline(__always)
    package mutating func with<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointer(to: &self) { enumStorage in
            try body(&UnsafeMutableRawPointer(enumStorage).assumingMemoryBound(to: Value.self).pointee)
        }
    }

    /// The value, if it is still held (a copy).
    @inlinable package var value: Value? {
        if case .held(let value) = self { value } else { nil }
    }

    /// Moves the held value out, leaving `released` (only while it is held).
    @inlinable
    package mutating func take() -> Value {
        guard case .held(let value) = self else { trap("Releasable.take() after release") }
        self = .released(0)
        return value
    }

    /// Lets go of the value (run it outside any lock: a deinit may re-enter).
    @inlinable
    package mutating func release() { self = .released(0) }
}

/// `Releasable` seen through a protocol, so that a generic class can take its `Releasable` as a
/// generic parameter of its own (`final class X<Held: ReleasableSlot>`, `Held == Releasable<D>`)
/// instead of naming `Releasable<D>` in a field.
///
/// The reason is the deinit. A generic class's deinit runs unspecialised, and destroys each field
/// through the field type's metadata: for `Releasable<D>` that is a `swift_getGenericMetadata` call
/// per object freed (about 320 instructions with the rest of the unspecialised destroy), for a field
/// typed with the class's own parameter it is the metadata the object already carries, and no
/// lookup. See "Specialisation" in `RuntimeContract.md`.
@usableFromInline
package protocol ReleasableSlot<Value> {
    associatedtype Value
    init(_ value: consuming Value)
    mutating func with<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result
    var value: Value? { get }
    mutating func release()
}

extension Releasable: ReleasableSlot {}

/// A value in an object of its own, for a generic class that would otherwise keep it in a field
/// whose type is not one of its own parameters (`Result<Output, Failure>?`, `Output?`): that
/// class's deinit runs unspecialised and would look the field's type up each time an object is
/// freed, where a reference to a box needs no type, and the box destroys a field of its own
/// parameter's type, whose metadata it carries. See "Specialisation" in `RuntimeContract.md`.
@usableFromInline
final class Box<Value> {
    /// Guarded by the owner (its lock).
    @exclusivity(unchecked)
    @usableFromInline var value: Value

    @inlinable init(_ value: Value) { self.value = value }
}

/// Lets a subscription (or subscriber) release what it holds — its subscriber, its operator's
/// closures, its upstream subscription — once its stream has ended *and* no call that uses them is
/// still running on another thread. See `RuntimeContract.md` (Lifetimes).
///
/// A call that uses what is to be released (a value or a completion going downstream) brackets
/// itself with `enter()` and `leave()`; whatever ends the stream calls `end()`, and a call that ends
/// it does so between its own `enter()` and `leave()`. Exactly one caller is told to release: the
/// `leave()` of the last call in flight once the stream has ended, or, when nothing is in flight, the
/// caller of `end()` through `claimRelease()`. So a cancel from another thread never frees what a
/// running call is using, and never waits for it either.
///
///     // a value (or a completion) going downstream:
///     if gate.enter() { deliver() }            // a completion: `if gate.enter(), gate.end() { ... }`
///     if gate.leave() { release() }
///     // a cancel:
///     if gate.end() { upstream.cancel(); if gate.claimRelease() { release() } }
///
/// One atomic word: bit 0 says the stream has ended, bit 1 that its holdings were released, and
/// the bits above count the calls in flight.
@frozen @usableFromInline
package struct EndGate: ~Copyable {
    @usableFromInline package let word = Atomic<UInt>(0)

    @usableFromInline package static var ended: UInt { 1 }
    @usableFromInline package static var released: UInt { 2 }
    @usableFromInline package static var call: UInt { 4 }

    @inlinable package init() {}

    /// Starts a call: true if the stream is live, false if it has ended (then make no call). Either
    /// way, call `leave()` afterwards.
    @inlinable @inline(__always)
    package func enter() -> Bool {
        word.wrappingAdd(Self.call, ordering: .acquiring).oldValue & Self.ended == 0
    }

    /// Ends a call: true if the caller must now release (the stream ended while it ran, and it was
    /// the last call in flight).
    @inlinable @inline(__always)
    package func leave() -> Bool {
        word.wrappingSubtract(Self.call, ordering: .acquiringAndReleasing).newValue == Self.ended && claimRelease()
    }

    /// Ends the stream: true for the one caller that ended it. Outside a call, follow it with
    /// `claimRelease()`; inside one, the call's `leave()` settles who releases.
    @inlinable
    package func end() -> Bool {
        word.bitwiseOr(Self.ended, ordering: .acquiringAndReleasing).oldValue & Self.ended == 0
    }

    /// Whether the stream has ended.
    @inlinable package var hasEnded: Bool { word.load(ordering: .acquiring) & Self.ended != 0 }

    /// True for the one caller that finds the stream ended and nothing in flight (and so must
    /// release now).
    @inlinable
    package func claimRelease() -> Bool {
        word.compareExchange(
            expected: Self.ended, desired: Self.ended | Self.released, ordering: .acquiringAndReleasing
        ).exchanged
    }
}

/// A subscription's gate and its release, together: what most subscriptions keep to let go of
/// their subscriber, closures and state at the end of the stream.
///
/// `release` is made where the subscription is created (in its `@inlinable init`, so specialised
/// for its concrete types): `cancel()` arrives through `any Subscription` and runs the unspecialised
/// method body, where letting go of a generic value would cost a metadata lookup. For the same
/// reason `Lifetime` is not generic over its owner (a generic struct's metadata is looked up there
/// too): the closure takes `AnyObject` and downcasts it, unchecked, to the class that made it.
@frozen @usableFromInline
struct Lifetime: ~Copyable {
    @usableFromInline typealias Owner = AnyObject
    @usableFromInline let gate = EndGate()
    @usableFromInline let release: (Owner) -> Void

    @inlinable init(release: @escaping (Owner) -> Void) { self.release = release }

    /// A call that uses what `owner` holds (a value or a completion going downstream): runs `body`
    /// if the stream is live, and releases afterwards if the stream ended meanwhile. A call that
    /// ends the stream calls `end()` inside `body`.
    @inlinable @inline(__always) @discardableResult
    func call<Result>(_ owner: Owner, _ body: () throws -> Result) rethrows -> Result? {
        let result = gate.enter() ? try body() : nil
        if gate.leave() { release(owner) }
        return result
    }

    /// Ends the stream; true for the one caller that did.
    @inlinable @inline(__always)
    func end() -> Bool { gate.end() }

    /// Ends the stream from outside any call (a cancel): releases now if no call is running.
    @inlinable
    func end(_ owner: Owner) {
        if gate.end(), gate.claimRelease() { release(owner) }
    }

    /// Whether the stream has ended.
    @inlinable var hasEnded: Bool { gate.hasEnded }

    /// Inside a call, once nothing else can deliver: `value` (if any), then `completion`, which
    /// ends the stream; unless a cancel, from inside the value's `receive` or another thread, ended
    /// it first (nothing follows a cancel).
    @inlinable
    func deliverEnd<Downstream: Subscriber>(
        _ value: Downstream.Input?, _ completion: Subscribers.Completion<Downstream.Failure>,
        to downstream: inout Releasable<Downstream>
    ) {
        if let value { _ = downstream.with { $0.receive(value) } }
        guard end() else { return }
        downstream.with { $0.receive(completion: completion) }
    }
}
