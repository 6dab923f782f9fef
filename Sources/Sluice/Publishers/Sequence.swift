// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// It emits one element per unit of demand and finishes right after the last element.
    @frozen
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        @inlinable public init(sequence: Elements) { self.sequence = sequence }

        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeFused(subscriber)
        }

        @inlinable @inline(__always)
        public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> { _Runtime.SequenceCursor(sequence) }

        /// What `_Runtime.SequenceCursor` does, as a loop: the iterator is asked for the next element
        /// before the current one is delivered, as Combine's subscription does, so that the stream
        /// finishes right after the last one. Where no code of the user's runs in the iteration
        /// (arrays, integer ranges: `_Runtime.IteratesWithoutSideEffects`), when it is asked cannot be
        /// seen, and a plain loop, over the elements' storage where they are contiguous, does the
        /// same in fewer instructions.
        @inlinable @inline(__always) @discardableResult
        public func _forEach(
            _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
        ) -> Bool {
            if Elements.self is any _Runtime.IteratesWithoutSideEffects.Type {
                let ran =
                    sequence.withContiguousStorageIfAvailable { runEach($0, receiveValue) }
                    ?? runEach(sequence, receiveValue)
                if !ran { return true }
            } else {
                var iterator = sequence.makeIterator()
                var upcoming = iterator.next()
                while let value = upcoming {
                    upcoming = iterator.next()
                    guard receiveValue(value) else { return true }
                }
            }
            receiveCompletion(.finished)
            return true
        }
    }
}

/// Gives `body` each element until it says stop; true if it never did.
@inlinable @inline(__always)
func runEach<Elements: Swift.Sequence>(_ elements: Elements, _ body: (Elements.Element) -> Bool) -> Bool {
    for element in elements {
        guard body(element) else { return false }
    }
    return true
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension _Runtime {
    /// A sequence whose iteration runs none of the user's code, so that when its iterator is asked for
    /// an element cannot be observed (see `Publishers.Sequence._forEach`).
    @usableFromInline protocol IteratesWithoutSideEffects {}

    /// A sequence whose iteration runs none of the user's code and whose elements sit in one
    /// buffer (`withContiguousStorageIfAvailable` always gives it): a cursor walks it by position.
    @usableFromInline protocol StoresElementsContiguously: IteratesWithoutSideEffects {}
}

extension Array: _Runtime.StoresElementsContiguously {}
extension ContiguousArray: _Runtime.StoresElementsContiguously {}
extension ArraySlice: _Runtime.StoresElementsContiguously {}
extension Range: _Runtime.IteratesWithoutSideEffects where Bound: FixedWidthInteger {}
extension ClosedRange: _Runtime.IteratesWithoutSideEffects where Bound: FixedWidthInteger {}

extension Swift.Sequence {
    /// A publisher of this sequence's elements that never fails.
    @inlinable public var publisher: Publishers.Sequence<Self, Never> { Publishers.Sequence(sequence: self) }
}

extension _Runtime {
    /// Walks a sequence one element ahead, so that it knows it is exhausted right after the last one.
    /// Elements stored contiguously (arrays) are walked by position instead: their end is known
    /// without looking ahead, and the loop that drains the cursor keeps the position and the count
    /// in registers, with no bounds check.
    @frozen
    @usableFromInline struct SequenceCursor<Elements: Swift.Sequence, Failure: Error>: _Runtime.FusedCursor {
        @usableFromInline var iterator: Elements.Iterator
        @usableFromInline var upcoming: Elements.Element?
        /// Walking by position: the next element's, and the number of elements.
        @usableFromInline var position = 0
        @usableFromInline let count: Int
        /// Walked by position, and kept to describe the subscription, as Combine's does (by the
        /// sequence).
        @usableFromInline let sequence: Elements

        @inlinable @inline(__always)
        static var walksByPosition: Bool { Elements.self is any _Runtime.StoresElementsContiguously.Type }

        @inlinable @inline(__always)
        init(_ sequence: Elements) {
            iterator = sequence.makeIterator()
            if Self.walksByPosition {
                upcoming = nil
                count = sequence.withContiguousStorageIfAvailable { $0.count } ?? 0
            } else {
                upcoming = iterator.next()
                count = 0
            }
            self.sequence = sequence
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Elements.Element, Failure> {
            if Self.walksByPosition {
                guard position != count else { return .finished }
                let value = sequence.withContiguousStorageIfAvailable { [position] in $0[position] }
                position &+= 1
                return .value(value.unsafelyUnwrapped)
            }
            guard let value = upcoming else { return .finished }
            upcoming = iterator.next()
            return .value(value)
        }

        @inlinable var isExhausted: Bool { Self.walksByPosition ? position == count : upcoming == nil }

        @inlinable var _underestimatedCount: Int { sequence.underestimatedCount }

        @inlinable var _name: StaticString { "Sequence" }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .showsSourceSubscription.union(.acceptsZeroDemand).union(.fusable)
        }

        /// Combine's ended sequence subscription shows an empty sequence.
        @usableFromInline static func _endedChildren(completion: Any?) -> [Mirror.Child] {
            [("sequence", [Elements.Element]())]
        }

        @inlinable
        func _reflection(downstream: Any) -> _Runtime.Reflection {
            _Runtime.Reflection("\(sequence)", [("sequence", sequence)])
        }
    }
}
