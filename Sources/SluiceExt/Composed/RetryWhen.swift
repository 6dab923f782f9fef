// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension Publishers {
    /// What ``Publisher/retry(when:)`` returns: the attempts, switched to the latest, until
    /// upstream finishes.
    public typealias RetryWhen<Upstream: Publisher, Trigger: Publisher> = Deferred<
        SwitchToLatest<
            RetryAttempt<Upstream>,
            Map<PrefixUntilOutput<RetryTriggers<Trigger>, PassthroughSubject<Void, Never>>, RetryAttempt<Upstream>>
        >
    > where Trigger.Failure == Upstream.Failure

    /// One attempt of ``Publisher/retry(when:)``: upstream, whose failure ends it empty.
    public typealias RetryAttempt<Upstream: Publisher> = Catch<
        HandleEvents<Upstream>, Empty<Upstream.Output, Upstream.Failure>
    >

    /// When ``Publisher/retry(when:)`` subscribes: at each of the trigger's values, and at once
    /// (the trigger is subscribed first, so that it is there for the first attempt's failure).
    public typealias RetryTriggers<Trigger: Publisher> = Merge<Map<Trigger, Void>, Sequence<[Void], Trigger.Failure>>
}

extension Publisher {
    /// Subscribes again each time a trigger publishes: `handler` makes the trigger from the stream
    /// of this subscription's failures.
    ///
    /// `handler` is called once per subscription, with a publisher of upstream's failures (it
    /// never fails itself; its failure type lets the trigger fail with one of them). Upstream is
    /// subscribed at once and again at each value of the trigger; a value that comes while an
    /// attempt is still running cancels it and starts the next. The stream ends
    /// - when upstream finishes (the trigger is then cancelled);
    /// - when the trigger fails, with its failure;
    /// - when the trigger has finished and no attempt is running, without a failure (the last
    ///   attempt's failure, if any, has gone to the trigger).
    ///
    /// ```swift
    /// // Three more attempts, a second apart, then the stream finishes.
    /// upstream.retry { failures in failures.prefix(3).delay(for: .seconds(1), scheduler: scheduler) }
    /// ```
    @inlinable
    public func retry<Trigger: Publisher>(
        when handler: @escaping (AnyPublisher<Failure, Failure>) -> Trigger
    ) -> Publishers.RetryWhen<Self, Trigger> where Trigger.Failure == Failure {
        Deferred {
            let failures = PassthroughSubject<Failure, Failure>()
            let finished = PassthroughSubject<Void, Never>()
            let attempt = self.handleEvents(receiveCompletion: { if case .finished = $0 { finished.send() } })
                .catch { failure -> Empty<Output, Failure> in
                    failures.send(failure)
                    return Empty()
                }
            return handler(failures.eraseToAnyPublisher()).map { _ in () }
                .merge(with: Publishers.Sequence(sequence: [()]))
                .prefix(untilOutputFrom: finished)
                .map { _ in attempt }
                .switchToLatest()
        }
    }
}
