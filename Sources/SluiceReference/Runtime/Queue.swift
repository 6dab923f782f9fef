// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A first-in first-out queue: an array read from a moving head, compacted now and then, so that
/// taking the first element does not shift the rest every time. A taken element's slot is emptied
/// at once, so the queue never keeps what it handed out alive.
struct Queue<Element> {
    private var items: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    var count: Int { items.count - head }

    var first: Element? { isEmpty ? nil : items[head] }

    mutating func append(_ element: Element) { items.append(element) }

    mutating func removeFirst() -> Element {
        let element = items[head].take()!
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return element
    }

    /// The first element, taken out; nil when the queue is empty.
    mutating func popFirst() -> Element? { isEmpty ? nil : removeFirst() }

    mutating func replaceLast(with element: Element) { items[items.count - 1] = element }

    mutating func replaceAll(with element: Element) {
        items.removeAll(keepingCapacity: true)
        head = 0
        items.append(element)
    }

    /// Empties the queue: what it held, for the caller to let go of (outside a lock).
    mutating func removeAll() -> [Element] {
        defer {
            items = []
            head = 0
        }
        return items[head...].map { $0! }
    }
}
