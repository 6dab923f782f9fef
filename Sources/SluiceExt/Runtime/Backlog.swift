// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A first-in, first-out queue that lets go of each element as it is taken out: a subscriber's
/// values waiting for demand, and `ReplaySubject`'s last values (`limit` keeps the newest).
///
/// Storage is a ring of optionals that grows by doubling, so a queue that is filled and emptied in
/// turn, as a subscriber with demand does, allocates nothing after its first growth.
@usableFromInline
struct Backlog<Element> {
    @usableFromInline var slots: ContiguousArray<Element?> = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[wrapped(head + count)] = element
        count += 1
    }

    /// Appends `element`, then drops the oldest elements until at most `limit` are left. The ring
    /// grows to at most `limit` slots; once full, the newest element takes the oldest one's slot.
    @inlinable mutating func append(_ element: Element, keepingAtMost limit: Int) {
        guard limit > 0 else { return }
        if count == limit, slots.count == limit {
            slots[head] = element
            head = wrapped(head + 1)
            return
        }
        if count == slots.count { grow(toAtMost: limit) }
        append(element)
        while count > limit { _ = popFirst() }
    }

    @inlinable mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        defer {
            head = wrapped(head + 1)
            count -= 1
        }
        return slots[head].take()
    }

    @inlinable mutating func removeAll() { self = Backlog() }

    /// A position one lap of the ring back, if it is past the end (positions never go further).
    @inlinable func wrapped(_ position: Int) -> Int { position < slots.count ? position : position - slots.count }

    @inlinable mutating func grow(toAtMost limit: Int = .max) {
        var grown = ContiguousArray<Element?>(repeating: nil, count: min(limit, max(4, slots.count * 2)))
        for index in 0..<count { grown[index] = slots[wrapped(head + index)].take() }
        slots = grown
        head = 0
    }
}
