// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Transforms a value into a publisher and republishes its values, ignoring the values that
    /// come while that publisher is still running: the first one wins until it completes.
    ///
    /// Each subscription has its own "running" flag: a value starts an inner publisher only when
    /// none is running, and the inner publisher's completion or cancel clears the flag.
    @inlinable
    public func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Deferred<Publishers.FlatMap<Publishers.HandleEvents<P>, Publishers.Filter<Self>>> where P.Failure == Failure {
        Deferred {
            let running = RunningFlag()
            return self.filter { _ in running.start() }
                .flatMap { value in
                    transform(value).handleEvents(
                        receiveCompletion: { _ in running.stop() }, receiveCancel: { running.stop() })
                }
        }
    }
}

/// Whether `flatMapFirst`'s inner publisher is running; set and cleared from any thread.
@usableFromInline
final class RunningFlag {
    @usableFromInline let lock = Lock()
    @usableFromInline var isRunning = false

    @inlinable init() {}

    /// Sets the flag; false if it was set already.
    @inlinable
    func start() -> Bool {
        lock.withLock {
            defer { isRunning = true }
            return !isRunning
        }
    }

    @inlinable
    func stop() { lock.withLock { isRunning = false } }
}
