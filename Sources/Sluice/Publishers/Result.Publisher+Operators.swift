// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Combine's eager specialisations on `Result.Publisher`: applied to the result at once, at assembly
// time. A failure passes through every one of them unchanged, without calling the closure, except
// `replaceError`, which replaces it, and `ignoreOutput()`, whose `Empty` cannot carry it: as
// shipped, it finishes.

extension Result {
    /// The `try` specialisations' one rule: a throwing transform of the success; the failure, or
    /// what the transform throws, becomes the new failure.
    @inlinable
    func tryMapSuccess<T>(_ transform: (Success) throws -> T) -> Result<T, any Error> {
        switch self {
        case .success(let value):
            do { return .success(try transform(value)) } catch { return .failure(error) }
        case .failure(let error):
            return .failure(error)
        }
    }
}

extension Result.Publisher {
    /// Publishes whether the value satisfies the predicate.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(result.tryMapSuccess(predicate))
    }

    /// Publishes the value in a one-element array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher { .init(result.map { [$0] }) }

    /// One value is its own minimum: the closure is not called.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the value, or fails with what the closure throws. As in Combine, the closure is
    /// called once, with the value on both sides, so that a throwing closure fails the publisher.
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        .init(
            result.tryMapSuccess { value in
                _ = try areInIncreasingOrder(value, value)
                return value
            })
    }

    /// One value is its own maximum: the closure is not called.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the value, or fails with what the closure throws (called once, as for `tryMin`).
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        tryMin(by: areInIncreasingOrder)
    }

    /// Publishes whether the value satisfies the predicate.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// Publishes whether the value satisfies the throwing predicate, or fails with what it throws.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(result.tryMapSuccess(predicate))
    }

    /// Publishes 1.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher { .init(result.map { _ in 1 }) }

    /// The value is its own first element.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// The value is its own last element.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// Finishes without publishing the value. A failure is lost too: `Empty` can only finish.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher { .init(result.map(transform)) }

    /// Publishes the transformed value, or fails with what the transform throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        .init(result.tryMapSuccess(transform))
    }

    /// Transforms the failure.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        .init(result.mapError(transform))
    }

    /// One value has no duplicates: the closure is not called.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the value, or fails with what the predicate throws (called once, with the value on
    /// both sides, as in Combine).
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
        -> Result<Output, any Error>.Publisher
    {
        tryMin(by: predicate)
    }

    /// Publishes the value, or the replacement in place of a failure.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        .init(.success((try? result.get()) ?? output))
    }

    /// A result is never empty: the replacement is never used.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// The result would be the same on every attempt, so there is nothing to retry.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the initial result combined with the value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(result.tryMapSuccess { try nextPartialResult(initialResult, $0) })
    }

    /// Publishes the initial result combined with the value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        reduce(initialResult, nextPartialResult)
    }

    /// Publishes the initial result combined with the value, or fails with what the closure throws.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryReduce(initialResult, nextPartialResult)
    }
}

extension Result.Publisher where Output: Comparable {
    /// One value is its own minimum.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// One value is its own maximum.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Equatable {
    /// Publishes whether the value equals the given one.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher { .init(result.map { $0 == output }) }

    /// One value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Failure == Never {
    /// Publishes the value with the given failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        .init(.success(result.get()))
    }
}
