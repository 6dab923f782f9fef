// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Combines each value of this publisher with the latest values of two others, once both have
    /// published; see `withLatestFrom(_:resultSelector:)`.
    @inlinable
    public func withLatestFrom<Other1: Publisher, Other2: Publisher, Result>(
        _ other1: Other1, _ other2: Other2,
        resultSelector: @escaping (Output, (Other1.Output, Other2.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other1.Output, Other2.Output), Failure>, Result>
    where Other1.Failure == Failure, Other2.Failure == Failure {
        withLatestFrom(other1.combineLatest(other2).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Publishes the latest values of two other publishers each time this publisher publishes.
    @inlinable
    public func withLatestFrom<Other1: Publisher, Other2: Publisher>(
        _ other1: Other1, _ other2: Other2
    )
        -> Publishers.WithLatestFrom<
            Self, AnyPublisher<(Other1.Output, Other2.Output), Failure>, (Other1.Output, Other2.Output)
        >
    where Other1.Failure == Failure, Other2.Failure == Failure {
        withLatestFrom(other1.combineLatest(other2).eraseToAnyPublisher())
    }

    /// Combines each value of this publisher with the latest values of three others, once all
    /// have published; see `withLatestFrom(_:resultSelector:)`.
    @inlinable
    public func withLatestFrom<Other1: Publisher, Other2: Publisher, Other3: Publisher, Result>(
        _ other1: Other1, _ other2: Other2, _ other3: Other3,
        resultSelector: @escaping (Output, (Other1.Output, Other2.Output, Other3.Output)) -> Result
    ) -> Publishers.WithLatestFrom<Self, AnyPublisher<(Other1.Output, Other2.Output, Other3.Output), Failure>, Result>
    where Other1.Failure == Failure, Other2.Failure == Failure, Other3.Failure == Failure {
        withLatestFrom(other1.combineLatest(other2, other3).eraseToAnyPublisher(), resultSelector: resultSelector)
    }

    /// Publishes the latest values of three other publishers each time this publisher publishes.
    @inlinable
    public func withLatestFrom<Other1: Publisher, Other2: Publisher, Other3: Publisher>(
        _ other1: Other1, _ other2: Other2, _ other3: Other3
    )
        -> Publishers.WithLatestFrom<
            Self, AnyPublisher<(Other1.Output, Other2.Output, Other3.Output), Failure>,
            (Other1.Output, Other2.Output, Other3.Output)
        > where Other1.Failure == Failure, Other2.Failure == Failure, Other3.Failure == Failure
    {
        withLatestFrom(other1.combineLatest(other2, other3).eraseToAnyPublisher())
    }
}
