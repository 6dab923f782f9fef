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

extension Event: CustomStringConvertible {
    /// `value(…)`, `failure(…)` or `finished`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let failure): "failure(\(failure))"
        case .finished: "finished"
        }
    }
}

/// A value that stands for a publisher's event: what `values()`, `failures()` and
/// `dematerialize()` read.
public protocol EventConvertible {
    /// The type of the event's value.
    associatedtype Output
    /// The type of the event's failure.
    associatedtype Failure: Error

    /// The event this value stands for.
    var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    @inlinable
    public var event: Event<Output, Failure> { self }
}
