// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Republishes values for `duration` after the subscription, on `scheduler`'s clock, then
    /// finishes (and cancels this publisher).
    ///
    /// `prefix(untilOutputFrom:)` with a signal `duration` after the subscription, delayed on
    /// `scheduler` with `tolerance` and `options`.
    @inlinable
    public func prefix<S: Scheduler>(
        duration: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> AnyPublisher<Output, Failure> {
        prefix(
            untilOutputFrom: Just(()).delay(for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
        )
        .eraseToAnyPublisher()
    }
}
