// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A first-in first-out queue in one circular buffer that doubles when full.
///
/// Appending and taking the first element are O(1); the only allocations are the buffer's growth
/// (amortised, none once it has reached the queue's high-water mark). An empty ring that never held
/// anything allocates nothing. It is a value type with copy-on-write storage, though Sluice keeps
/// each ring in one place (a lock-guarded field) and so never pays for a copy.
@frozen @usableFromInline
struct RingBuffer<Element> {
    @usableFromInline var storage: RingStorage<Element>?

    @inlinable init() { storage = nil }

    // The header is read through a pointer, not `ManagedBuffer.header`: that is a class property,
    // and each access to it would pay a dynamic exclusivity check (about 75 instructions; zip makes
    // six ring operations per pair).
    @inlinable var count: Int { storage?.withUnsafeMutablePointerToHeader { $0.pointee.count } ?? 0 }

    @inlinable var isEmpty: Bool { count == 0 }

    /// The elements, first to last (a copy, for introspection).
    var elements: [Element] {
        var rest = self
        var elements: [Element] = []
        while !rest.isEmpty { elements.append(rest.removeFirst()) }
        return elements
    }

    @inlinable
    mutating func append(_ element: Element) {
        if _slowPath(!isKnownUniquelyReferenced(&storage) || storage.unsafelyUnwrapped.isFull) {
            grow()
        }
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let slot = (header.pointee.head &+ header.pointee.count) & (header.pointee.capacity &- 1)
            (elements + slot).initialize(to: element)
            header.pointee.count &+= 1
        }
    }

    /// Removes and returns the first element; the ring must not be empty.
    @inlinable
    mutating func removeFirst() -> Element {
        require(!isEmpty, "removeFirst() on an empty RingBuffer")
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { grow(minimumCapacity: 0) }
        return storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let head = header.pointee.head
            header.pointee.head = (head &+ 1) & (header.pointee.capacity &- 1)
            header.pointee.count &-= 1
            return (elements + head).move()
        }
    }

    /// Replaces the last element; the ring must not be empty.
    @inlinable
    mutating func replaceLast(with element: Element) {
        require(!isEmpty, "replaceLast(with:) on an empty RingBuffer")
        if _slowPath(!isKnownUniquelyReferenced(&storage)) { grow(minimumCapacity: 0) }
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let slot = (header.pointee.head &+ header.pointee.count &- 1) & (header.pointee.capacity &- 1)
            (elements + slot).pointee = element
        }
    }

    /// Lets go of every element and of the buffer.
    @inlinable
    mutating func removeAll() { storage = nil }

    /// Moves (or, if the storage is shared, copies) the elements into a new buffer with room for
    /// at least one more element than now, or `minimumCapacity`.
    @inlinable @inline(never)
    mutating func grow(minimumCapacity: Int? = nil) {
        let count = self.count
        var capacity = max(storage?.withUnsafeMutablePointerToHeader { $0.pointee.capacity } ?? 0, 4)
        let wanted = minimumCapacity ?? (count + 1)
        while capacity < wanted { capacity &<<= 1 }
        let fresh = RingStorage<Element>.make(capacity: capacity)
        // Asked before `old` holds a second reference.
        let isUnique = isKnownUniquelyReferenced(&storage)
        if let old = storage {
            old.withUnsafeMutablePointers { header, elements in
                fresh.withUnsafeMutablePointerToElements { target in
                    let mask = header.pointee.capacity &- 1
                    for offset in 0..<count {
                        let source = elements + ((header.pointee.head &+ offset) & mask)
                        if isUnique {
                            (target + offset).moveInitialize(from: source, count: 1)
                        } else {
                            (target + offset).initialize(to: source.pointee)
                        }
                    }
                }
                // Moved-out elements must not be deinitialised again by the old storage.
                if isUnique { header.pointee.count = 0 }
            }
            fresh.withUnsafeMutablePointerToHeader { $0.pointee.count = count }
        }
        storage = fresh
    }
}

/// Where a ring's fields live: at the head of its buffer.
@frozen @usableFromInline
struct RingHeader {
    /// The index of the first element.
    @usableFromInline var head: Int
    @usableFromInline var count: Int
    /// A power of two, so that wrapping is a mask.
    @usableFromInline let capacity: Int

    @inlinable init(capacity: Int) {
        head = 0
        count = 0
        self.capacity = capacity
    }
}

/// A ring's buffer: the header and the elements in one allocation.
@usableFromInline
final class RingStorage<Element>: ManagedBuffer<RingHeader, Element> {
    @inlinable
    static func make(capacity: Int) -> RingStorage<Element> {
        let buffer = create(minimumCapacity: capacity) { _ in RingHeader(capacity: capacity) }
        return unsafeDowncast(buffer, to: RingStorage<Element>.self)
    }

    @inlinable var isFull: Bool { withUnsafeMutablePointerToHeader { $0.pointee.count == $0.pointee.capacity } }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let head = header.pointee.head
            let count = header.pointee.count
            let first = min(count, header.pointee.capacity - head)
            (elements + head).deinitialize(count: first)
            elements.deinitialize(count: count - first)
        }
    }
}
