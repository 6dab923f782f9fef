// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Combine's eager specialisations on `Publishers.Sequence`: the operator runs over the whole sequence
// when it is applied, at assembly time (an infinite sequence never returns, as in Combine), and the
// result is again a source: another `Publishers.Sequence`, or, for the operators that fold the stream
// into one answer, a `Result.Publisher` (any failure type), or an `Optional.Publisher` or `Just` (only
// when the sequence cannot fail, since those cannot carry a failure).

extension Publishers.Sequence {
    /// Publishes whether every element satisfies the predicate.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.allSatisfy(predicate)))
    }

    /// Publishes whether every element satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.allSatisfy(predicate) })
    }

    /// Publishes all the elements in one array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher { .init(.success(Array(sequence))) }

    /// Publishes the non-`nil` results of the transform.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.keeping(transform))
    }

    /// Publishes whether some element satisfies the predicate.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.contains(where: predicate)))
    }

    /// Publishes whether some element satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.contains(where: predicate) })
    }

    /// Publishes the elements from the first one the predicate does not drop.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        .init(sequence: sequence.drop(while: predicate))
    }

    /// Publishes the elements after the first `count`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        .init(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements that satisfy the predicate.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: sequence.keeping { isIncluded($0) ? $0 : nil })
    }

    /// Finishes without publishing any element.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed elements.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.transformed(transform))
    }

    /// Publishes at most the first `maxLength` elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        .init(sequence: sequence.prefix(maxLength))
    }

    /// Publishes the elements before the first one that fails the predicate.
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: sequence.prefix(while: predicate))
    }

    /// Publishes the accumulated result of combining the elements.
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        .init(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Publishes the accumulated result, or fails with what the closure throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Publishes the elements with every `nil` replaced by the given value (still as optionals, as in
    /// Combine).
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        .init(sequence: sequence.transformed { $0 ?? output })
    }

    /// Publishes each intermediate result of combining the elements.
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var partial = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            partial = nextPartialResult(partial, element)
            results.append(partial)
        }
        return .init(sequence: results)
    }

    /// Publishes the same elements with the given failure type.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        .init(sequence: sequence)
    }
}

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element, if any.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element, if any.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element that satisfies the predicate, if any.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element, if any.
    @inlinable
    public func min() -> Optional<Output>.Publisher { .init(sequence.min()) }

    /// Publishes the maximum element, if any.
    @inlinable
    public func max() -> Optional<Output>.Publisher { .init(sequence.max()) }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Publishes the elements without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var kept: [Output] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return .init(sequence: kept)
    }

    /// Publishes whether the sequence contains the given element.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        .init(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher { .init(.success(sequence.count)) }

    /// Publishes the elements in the given range of indices.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, if any.
    @inlinable
    public func first() -> Optional<Output>.Publisher { .init(sequence.first) }

    /// Publishes the element at the given index, or nothing if the index is out of bounds.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element, if any.
    @inlinable
    public func last() -> Optional<Output>.Publisher { .init(sequence.last) }

    /// Publishes the last element that satisfies the predicate, if any.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the number of elements: a sequence that cannot fail counts into a `Just`.
    @inlinable
    public func count() -> Just<Int> { Just(sequence.count) }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes the given elements, then this sequence's.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> { prepend(elements) }

    /// Publishes the elements of the given sequence, then this sequence's.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        // Combine reserves room for both, then appends both (SequenceTests record the calls it makes).
        var joined = Elements()
        joined.reserveCapacity(sequence.count + elements.underestimatedCount)
        joined.append(contentsOf: elements)
        joined.append(contentsOf: sequence)
        return .init(sequence: joined)
    }

    /// Publishes the given publisher's elements, then this sequence's.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        // As Combine's: the given publisher's sequence with this one's appended to it.
        publisher.append(sequence)
    }

    /// Publishes this sequence's elements, then the given ones.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> { append(elements) }

    /// Publishes this sequence's elements, then those of the given sequence.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return .init(sequence: joined)
    }

    /// Publishes this sequence's elements, then the given publisher's.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}

extension Swift.Sequence {
    /// The results of `transform`, in order. Over contiguous elements (arrays), each result is
    /// written straight into a buffer of the final size: no capacity check per element, unlike
    /// the standard library's `map`, which appends.
    @inlinable
    func transformed<T>(_ transform: (Element) -> T) -> [T] {
        withContiguousStorageIfAvailable { elements in
            [T](unsafeUninitializedCapacity: elements.count) { results, written in
                for index in elements.indices {
                    (results.baseAddress.unsafelyUnwrapped + index).initialize(to: transform(elements[index]))
                    written = index &+ 1
                }
            }
        } ?? map(transform)
    }

    /// The non-nil results of `transform`, in order, built in one buffer reserved for the whole
    /// sequence (`underestimatedCount`): no regrowth copies, unlike appending one by one from
    /// empty as `filter` and `compactMap` do; over contiguous elements, no capacity check either.
    @inlinable
    func keeping<T>(_ transform: (Element) -> T?) -> [T] {
        if let kept = withContiguousStorageIfAvailable({ elements in
            [T](unsafeUninitializedCapacity: elements.count) { results, written in
                for element in elements {
                    if let result = transform(element) {
                        (results.baseAddress.unsafelyUnwrapped + written).initialize(to: result)
                        written &+= 1
                    }
                }
            }
        }) {
            return kept
        }
        var result: [T] = []
        result.reserveCapacity(underestimatedCount)
        for element in self {
            if let kept = transform(element) { result.append(kept) }
        }
        return result
    }
}
