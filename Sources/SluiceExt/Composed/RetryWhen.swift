// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publisher {
    /// Subscribes again each time a trigger publishes: `errorTrigger` makes the trigger from the
    /// stream of this subscription's failures.
    ///
    /// `errorTrigger` is called once per subscription, with a publisher of upstream's failures.
    /// Upstream is subscribed at once and again at each value of the trigger; a value that comes
    /// while an attempt is still running cancels it and starts the next. Upstream's failures go to
    /// the trigger only. The stream ends
    /// - when upstream finishes (the trigger is then cancelled);
    /// - when the trigger fails with one of upstream's failures, with that failure (a failure of
    ///   another type cannot end the stream, as in CombineExt: the stream goes on without
    ///   attempts);
    /// - when the trigger has finished and no attempt is running.
    ///
    /// ```swift
    /// // Three more attempts, a second apart, then the stream finishes.
    /// upstream.retryWhen { failures in failures.prefix(3).delay(for: .seconds(1), scheduler: scheduler) }
    /// ```
    @inlinable
    public func retryWhen<RetryTrigger: Publisher>(
        _ errorTrigger: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger
    ) -> Publishers.RetryWhen<Self, RetryTrigger, Output, Failure> {
        Publishers.RetryWhen(upstream: self, errorTrigger: errorTrigger)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream again each time a trigger made from its
    /// failures publishes: see ``Sluice/Publisher/retryWhen(_:)``.
    public final class RetryWhen<Upstream: Publisher, RetryTrigger: Publisher, Output, Failure>: Publisher
    where Upstream.Output == Output, Upstream.Failure == Failure {
        /// Makes a subscription's trigger from the publisher of its failures.
        public typealias ErrorTrigger = (AnyPublisher<Failure, Never>) -> RetryTrigger

        @usableFromInline let upstream: Upstream
        @usableFromInline let errorTrigger: ErrorTrigger

        @inlinable
        init(upstream: Upstream, errorTrigger: @escaping ErrorTrigger) {
            self.upstream = upstream
            self.errorTrigger = errorTrigger
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let failures = PassthroughSubject<Failure, Never>()
            let finished = PassthroughSubject<Void, Never>()
            // One attempt: upstream, whose failure goes to the trigger and ends the attempt empty.
            let attempt = upstream.handleEvents(receiveCompletion: { if case .finished = $0 { finished.send() } })
                .catch { failure -> Empty<Output, Failure> in
                    failures.send(failure)
                    return Empty()
                }
            // The trigger is subscribed first (merge's order), so that it is there for the first
            // attempt's failure, which the one-value sequence starts.
            errorTrigger(failures.eraseToAnyPublisher())
                .map { _ in () }
                .catch { error -> AnyPublisher<Void, Failure> in
                    if let failure = error as? Failure {
                        Fail(error: failure).eraseToAnyPublisher()
                    } else {
                        Empty(completeImmediately: false).eraseToAnyPublisher()
                    }
                }
                .merge(with: Publishers.Sequence(sequence: [()]))
                .prefix(untilOutputFrom: finished)
                .map { _ in attempt }
                .switchToLatest()
                .subscribe(subscriber)
        }
    }
}
