// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Combine's eager specialisations on `Just`: the answer is known when the operator is applied, so
// each returns a source publisher (`Just`, `Optional.Publisher`, `Result.Publisher`,
// `Publishers.Sequence`, `Empty`) instead of an operator wrapper. Closures run at once, here.

extension Just {
    /// Publishes whether the value satisfies the predicate.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Publishes the value in a one-element array.
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// Publishes the transformed value, or finishes with no value if the transform returns `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher { .init(transform(output)) }

    /// One value is its own minimum: the closure is not called.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// One value is its own maximum: the closure is not called.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the given elements, then the value.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

    /// Publishes the elements of the sequence, then the value.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where Output == S.Element {
        // Room for both first, then the elements and the value, as Combine's (JustTests record the calls).
        var joined: [Output] = []
        joined.reserveCapacity(elements.underestimatedCount + 1)
        joined.append(contentsOf: elements)
        joined.append(output)
        return .init(sequence: joined)
    }

    /// Publishes the value, then the given elements.
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

    /// Publishes the value, then the elements of the sequence.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where Output == S.Element {
        var joined = [output]
        joined.append(contentsOf: elements)
        return .init(sequence: joined)
    }

    /// Publishes whether the value satisfies the predicate.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// Publishes 1.
    public func count() -> Just<Int> { Just<Int>(1) }

    /// Publishes the value only when nothing is dropped (`count == 0`). `count` must not be negative.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst(_:) requires a non-negative count (got \(count))")
        return .init(count == 0 ? output : nil)
    }

    /// Publishes the value unless the predicate drops it.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? nil : output)
    }

    /// The value is its own first element.
    public func first() -> Just<Output> { self }

    /// Publishes the value if it satisfies the predicate.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value is its own last element.
    public func last() -> Just<Output> { self }

    /// Publishes the value if it satisfies the predicate.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies the predicate, else finishes with no value.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(isIncluded(output) ? output : nil)
    }

    /// Finishes without publishing the value.
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// Publishes the transformed value, or fails with what the transform throws.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        .init(Result { try transform(output) })
    }

    /// `Just` cannot fail: only the failure type changes, and the closure is never called.
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher { .init(.success(output)) }

    /// Publishes the value if `index` is 0. `index` must not be negative.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "output(at:) requires a non-negative index (got \(index))")
        return .init(index == 0 ? output : nil)
    }

    /// Publishes the value if the range starts at index 0.
    ///
    /// As shipped, Combine's `Just` looks only at the lower bound (relative to `0..<Int.max`): even the
    /// empty range `0..<0` publishes the value, and a negative lower bound publishes nothing rather
    /// than trapping (Apple feedback FB6169621).
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        .init(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the value if `maxLength` is at least 1. `maxLength` must not be negative.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "prefix(_:) requires a non-negative maxLength (got \(maxLength))")
        return .init(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if it satisfies the predicate.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the initial result combined with the value.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        .init(.success(nextPartialResult(initialResult, output)))
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, any Error>.Publisher
    {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// One value has no duplicates: the closure is not called.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value, or fails with what the predicate throws. As in Combine, the predicate is
    /// called once, with the value on both sides, so that a throwing predicate fails the publisher.
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
        -> Result<Output, any Error>.Publisher
    {
        .init(
            Result {
                _ = try predicate(output, output); return output
            })
    }

    /// `Just` cannot fail: the replacement is never used.
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// `Just` is never empty: the replacement is never used.
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// `Just` cannot fail, so there is nothing to retry.
    public func retry(_ times: Int) -> Just<Output> { self }

    /// Publishes the initial result combined with the value.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        .init(.success(nextPartialResult(initialResult, output)))
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, any Error>.Publisher
    {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// Publishes the value with the given failure type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        .init(.success(output))
    }
}

extension Just where Output: Comparable {
    /// One value is its own minimum.
    public func min() -> Just<Output> { self }

    /// One value is its own maximum.
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Publishes whether the value equals the given one.
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// One value has no duplicates.
    public func removeDuplicates() -> Just<Output> { self }
}
