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
        slots[(head + count) % slots.count] = element
        count += 1
    }

    /// Appends `element`, then drops the oldest elements until at most `limit` are left.
    @inlinable mutating func append(_ element: Element, keepingAtMost limit: Int) {
        guard limit > 0 else { return }
        append(element)
        while count > limit { _ = popFirst() }
    }

    @inlinable mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        defer {
            head = (head + 1) % slots.count
            count -= 1
        }
        return slots[head].take()
    }

    @inlinable mutating func removeAll() { self = Backlog() }

    @inlinable mutating func grow() {
        var grown = ContiguousArray<Element?>(repeating: nil, count: max(4, slots.count * 2))
        for index in 0..<count { grown[index] = slots[(head + index) % slots.count].take() }
        slots = grown
        head = 0
    }
}
