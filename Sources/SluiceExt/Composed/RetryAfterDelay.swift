// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Subscribes again after a failure, up to `retries` times, each time `interval` after the
    /// failure, on `scheduler`.
    ///
    /// A failure is held back for `interval` before `retry` sees it (the last one too, before it
    /// reaches downstream), so on a `TestScheduler` the attempts are at virtual times `interval`
    /// apart.
    @inlinable
    public func retry<S: Scheduler>(
        _ retries: Int, delay interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Retry<Publishers.Catch<Self, Publishers.Delay<Fail<Output, Failure>, S>>> {
        self.catch { Fail(error: $0).delay(for: interval, scheduler: scheduler, options: options) }
            .retry(retries)
    }
}
