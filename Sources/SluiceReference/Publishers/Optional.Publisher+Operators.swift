// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Combine's eager specialisations on `Optional.Publisher`: applied to the optional value at once.
// As shipped, a `nil` publisher stays `nil` through almost all of them, even where the general
// operator would publish something for an empty stream (`count()`, `reduce`, `contains`): only
// `collect()` and `replaceEmpty(with:)` turn `nil` into a value.

extension Optional.Publisher {
    /// Publishes whether the value satisfies the predicate; `nil` stays `nil`.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher { .init(output.map(predicate)) }

    /// Publishes the value in an array: one element, or none for `nil`.
    public func collect() -> Optional<[Output]>.Publisher { .init(output.map { [$0] } ?? []) }

    /// Publishes the transformed value if there is one and the transform returns one.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher { .init(output.flatMap(transform)) }

    /// At most one value is its own minimum: the closure is not called.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// At most one value is its own maximum: the closure is not called.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// Publishes whether the value satisfies the predicate; `nil` stays `nil`.
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher { .init(output.map(predicate)) }

    /// Publishes 1 for a value; `nil` stays `nil`.
    public func count() -> Optional<Int>.Publisher { .init(output.map { _ in 1 }) }

    /// Publishes the value only when nothing is dropped (`count == 0`). `count` must not be negative.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        require(count >= 0, "dropFirst(_:) requires a non-negative count (got \(count))")
        return .init(count == 0 ? output : nil)
    }

    /// Publishes the value unless the predicate drops it.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The value, if any, is its own first element.
    public func first() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies the predicate.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// The value, if any, is its own last element.
    public func last() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies the predicate.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if there is one and it satisfies the predicate.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Finishes without publishing the value.
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value, if there is one.
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher { .init(output.map(transform)) }

    /// Publishes the value if `index` is 0. `index` must not be negative.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        require(index >= 0, "output(at:) requires a non-negative index (got \(index))")
        return .init(index == 0 ? output : nil)
    }

    /// Publishes the value if the range (relative to `0..<Int.max`) contains index 0.
    ///
    /// As in Combine, the lower bound must not be negative and the upper bound must be below
    /// `Int.max - 1`, the limits `Publishers.Output` puts on a range.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let range = range.relative(to: 0..<Int.max)
        require(range.lowerBound >= 0, "output(in:) requires a non-negative lower bound (got \(range.lowerBound))")
        require(range.upperBound < Int.max - 1, "output(in:) requires an upper bound below Int.max - 1")
        return .init(range.contains(0) ? output : nil)
    }

    /// Publishes the value if `maxLength` is at least 1. `maxLength` must not be negative.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        require(maxLength >= 0, "prefix(_:) requires a non-negative maxLength (got \(maxLength))")
        return .init(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if it satisfies the predicate.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the initial result combined with the value; `nil` stays `nil`.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        .init(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the initial result combined with the value; `nil` stays `nil`.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// At most one value has no duplicates: the closure is not called.
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// `Optional.Publisher` cannot fail: the replacement is never used.
    public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

    /// Publishes the value, or the replacement for `nil`.
    public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

    /// `Optional.Publisher` cannot fail, so there is nothing to retry.
    public func retry(_ times: Int) -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Comparable {
    /// At most one value is its own minimum.
    public func min() -> Optional<Output>.Publisher { self }

    /// At most one value is its own maximum.
    public func max() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Output: Equatable {
    /// Publishes whether the value equals the given one; `nil` stays `nil`.
    public func contains(_ output: Output) -> Optional<Bool>.Publisher { .init(self.output.map { $0 == output }) }

    /// At most one value has no duplicates.
    public func removeDuplicates() -> Optional<Output>.Publisher { self }
}
