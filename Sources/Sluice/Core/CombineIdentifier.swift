// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// A unique identifier for publishers, subscribers and subscriptions.
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    private let rawValue: UInt64

    private static let next = Atomic<UInt64>(0)

    /// Creates a fresh identifier, distinct from every other created this way.
    public init() {
        rawValue = Self.next.wrappingAdd(1, ordering: .relaxed).newValue | (1 << 63)
    }

    /// Creates the identifier of an object: equal for the same object while it lives.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A type that has a Combine identifier.
public protocol CustomCombineIdentifierConvertible {
    /// An identifier for this instance.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    @inlinable public var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}
