// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// A publisher's event as a value: one of its values, or its completion.
public enum Event<Output, Failure: Error> {
    /// A value.
    case value(Output)
    /// The failure that ended the stream.
    case failure(Failure)
    /// The stream finished.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event {
    /// A value or a failure as a one-event publisher, for `dematerialize()`, which ends the
    /// stream at `.finished` before it gets here.
    @inlinable
    var valueOrFailure: Result<Output, Failure>.Publisher {
        switch self {
        case .value(let value): Result.success(value).publisher
        case .failure(let failure): Result.failure(failure).publisher
        case .finished: trap("dematerialize() ends the stream at .finished")
        }
    }
}

extension Publisher {
    /// Publishes every event of this publisher as a value that cannot fail: each value as
    /// `.value`, then the completion as `.finished` or `.failure`, after which the stream finishes.
    @inlinable
    public func materialize()
        -> Publishers.Catch<
            Publishers.Concatenate<
                Publishers.Map<Self, Event<Output, Failure>>, Publishers.Sequence<[Event<Output, Failure>], Failure>
            >,
            Just<Event<Output, Failure>>
        >
    {
        map { Event.value($0) }
            .append(.finished)
            .catch { Just(.failure($0)) }
    }
}

extension Publisher where Failure == Never {
    /// Turns the events `materialize()` makes back into a stream: `.value` becomes a value,
    /// `.failure` the stream's failure, `.finished` its end.
    @inlinable
    public func dematerialize<Value, EventFailure: Error>()
        -> Publishers.FlatMap<
            Result<Value, EventFailure>.Publisher,
            Publishers.SetFailureType<Publishers.PrefixWhile<Self>, EventFailure>
        > where Output == Event<Value, EventFailure>
    {
        prefix { event in
            if case .finished = event { false } else { true }
        }
        .setFailureType(to: EventFailure.self)
        .flatMap(maxPublishers: .max(1)) { $0.valueOrFailure }
    }
}
