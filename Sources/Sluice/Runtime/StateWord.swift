// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// An enum whose cases fit a byte, kept in an `Atomic` as a subscription's state word: the value
/// path reads it with one load and no lock, and it changes under the subscription's lock.
/// Conforming is one line (`enum Phase: UInt8, StateWord { ... }`); `UpstreamSlot`'s status is
/// one, and so are the phases of the operators that keep their own (`concatenate`, the two
/// until-output operators, `multicast`).
@usableFromInline
protocol StateWord: RawRepresentable<UInt8>, AtomicRepresentable
where AtomicRepresentation == UInt8.AtomicRepresentation {}

extension StateWord {
    @inlinable
    static func encodeAtomicRepresentation(_ value: consuming Self) -> UInt8.AtomicRepresentation {
        UInt8.encodeAtomicRepresentation(value.rawValue)
    }

    /// Without `init(rawValue:)`'s check, which the value path would pay on every load: the word
    /// only ever holds what `encodeAtomicRepresentation` stored, and each case's raw value is its
    /// declaration index, which is how the enum is laid out.
    @inlinable
    static func decodeAtomicRepresentation(_ storage: consuming UInt8.AtomicRepresentation) -> Self {
        unsafeBitCast(UInt8.decodeAtomicRepresentation(storage), to: Self.self)
    }
}
