// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher where Failure == Never, Output: Sendable {
    /// This publisher's values as an async sequence that keeps what arrives while the consumer is
    /// busy, as `bufferingPolicy` says.
    ///
    /// `values` asks for one value at a time, so a subject's value sent while the loop body runs is
    /// not delivered; this asks for every value at once and keeps them in an `AsyncStream`.
    /// Ending the iteration (a `break`, or the task's cancellation) cancels the subscription.
    @inlinable
    public func values(bufferingPolicy: AsyncStream<Output>.Continuation.BufferingPolicy) -> AsyncStream<Output> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = UncheckedCancellable(
                sink(receiveCompletion: { _ in continuation.finish() }, receiveValue: { continuation.yield($0) }))
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}

extension Publisher where Output: Sendable {
    /// This publisher's values as an async sequence that keeps what arrives while the consumer is
    /// busy, as `bufferingPolicy` says, and ends with the publisher's failure; see
    /// `values(bufferingPolicy:)` for publishers that cannot fail.
    @inlinable
    public func values(
        bufferingPolicy: AsyncThrowingStream<Output, any Error>.Continuation.BufferingPolicy
    ) -> AsyncThrowingStream<Output, any Error> {
        AsyncThrowingStream(bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = UncheckedCancellable(
                sink(
                    receiveCompletion: { completion in
                        switch completion {
                        case .finished: continuation.finish()
                        case .failure(let error): continuation.finish(throwing: error)
                        }
                    }, receiveValue: { continuation.yield($0) }))
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}

/// A subscription's cancellable, handed to a stream's termination handler, which may run on any
/// thread: cancelling is thread-safe.
@usableFromInline
struct UncheckedCancellable: @unchecked Sendable {
    @usableFromInline let cancellable: AnyCancellable
    @inlinable init(_ cancellable: AnyCancellable) { self.cancellable = cancellable }
    @inlinable func cancel() { cancellable.cancel() }
}
