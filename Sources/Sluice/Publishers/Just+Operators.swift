// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Combine's eager specialisations on `Just`: the answer is known when the operator is applied, so
// each is computed here, at assembly time, and returns a source (`Just`, `Optional.Publisher`,
// `Result.Publisher`, `Publishers.Sequence`, `Empty`) rather than an operator wrapper. Closures are
// not escaping: they run now, once, or not at all where one value makes them moot.

extension Just {
    /// Publishes whether the value satisfies the predicate.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Publishes the value in a one-element array.
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// Publishes the transformed value, or finishes with no value if the transform returns `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher { .init(transform(output)) }

    /// One value is its own minimum: the closure is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// One value is its own maximum: the closure is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the given elements, then the value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

    /// Publishes the elements of the sequence, then the value.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where Output == S.Element {
        // Combine reserves room for both, then appends (JustTests record the calls it makes).
        var joined: [Output] = []
        joined.reserveCapacity(elements.underestimatedCount + 1)
        joined.append(contentsOf: elements)
        joined.append(output)
        return .init(sequence: joined)
    }

    /// Publishes the value, then the given elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

    /// Publishes the value, then the elements of the sequence.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where Output == S.Element {
        var joined = [output]
        joined.append(contentsOf: elements)
        return .init(sequence: joined)
    }

    /// Publishes whether the value satisfies the predicate.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Publishes 1.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// Publishes the value only when nothing is dropped (`count == 0`). `count` must not be negative.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst(_:) requires a non-negative count (got \(count))")
        return .init(count == 0 ? output : nil)
    }

    /// Publishes the value unless the predicate drops it.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? nil : output)
    }

    /// The value is its own first element.
    @inlinable
    public func first() -> Just<Output> { self }

    /// Publishes the value if it satisfies the predicate.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value is its own last element.
    @inlinable
    public func last() -> Just<Output> { self }

    /// Publishes the value if it satisfies the predicate.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies the predicate, else finishes with no value.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(isIncluded(output) ? output : nil)
    }

    /// Finishes without publishing the value.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// Publishes the transformed value, or fails with what the transform throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        .init(Result { try transform(output) })
    }

    /// `Just` cannot fail: only the failure type changes, and the closure is never called.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher { .init(.success(output)) }

    /// Publishes the value if `index` is 0. `index` must not be negative.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "output(at:) requires a non-negative index (got \(index))")
        return .init(index == 0 ? output : nil)
    }

    /// Publishes the value if the range starts at index 0.
    ///
    /// As shipped, Combine's `Just` looks only at the lower bound (relative to `0..<Int.max`): even the
    /// empty range `0..<0` publishes the value, and a negative lower bound publishes nothing rather
    /// than trapping (Apple feedback FB6169621).
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        .init(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the value if `maxLength` is at least 1. `maxLength` must not be negative.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "prefix(_:) requires a non-negative maxLength (got \(maxLength))")
        return .init(maxLength == 0 ? nil : output)
    }

    /// Publishes the value if it satisfies the predicate.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the initial result combined with the value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        .init(.success(nextPartialResult(initialResult, output)))
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// One value has no duplicates: the closure is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value, or fails with what the predicate throws. As in Combine, the predicate is
    /// called once, with the value on both sides, so that a throwing predicate fails the publisher.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        .init(
            Result {
                _ = try predicate(output, output); return output
            })
    }

    /// `Just` cannot fail: the replacement is never used.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// `Just` is never empty: the replacement is never used.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// `Just` cannot fail, so there is nothing to retry.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> { self }

    /// Publishes the initial result combined with the value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryReduce(initialResult, nextPartialResult)
    }

    /// Publishes the value with the given failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        .init(.success(output))
    }
}

extension Just where Output: Comparable {
    /// One value is its own minimum.
    @inlinable
    public func min() -> Just<Output> { self }

    /// One value is its own maximum.
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Publishes whether the value equals the given one.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// One value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}
