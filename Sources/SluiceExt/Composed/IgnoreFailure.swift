// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Ends the stream where this publisher would fail: the values before the failure are
    /// published, then the stream finishes, or, with `completeImmediately` false, never ends.
    @inlinable
    public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
        self.catch { _ in Empty(completeImmediately: completeImmediately) }.eraseToAnyPublisher()
    }

    /// Ends the stream where this publisher would fail, as `ignoreFailure(completeImmediately:)`
    /// does, and gives the stream the failure type that downstream expects.
    @inlinable
    public func ignoreFailure<NewFailure: Error>(
        setFailureType newFailureType: NewFailure.Type, completeImmediately: Bool = true
    ) -> AnyPublisher<Output, NewFailure> {
        self.catch { _ in Empty(completeImmediately: completeImmediately) }
            .setFailureType(to: newFailureType)
            .eraseToAnyPublisher()
    }
}
