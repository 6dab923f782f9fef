// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Publishes `value` in place of each value of this publisher.
    @inlinable
    public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
        map { _ in value }
    }

    /// Publishes `()` in place of each value of this publisher.
    @inlinable
    public func mapToVoid() -> Publishers.Map<Self, Void> {
        map { _ in () }
    }

    /// Publishes each value as `.success`, and this publisher's failure as a last `.failure`
    /// value, after which the stream finishes: a stream that cannot fail.
    @inlinable
    public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
        map { Result.success($0) }
            .catch { Just(.failure($0)) }
            .eraseToAnyPublisher()
    }
}

extension Publisher where Output == Bool {
    /// Publishes the negation of each value.
    @inlinable
    public func toggle() -> Publishers.Map<Self, Bool> {
        map { !$0 }
    }
}
