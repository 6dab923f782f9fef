// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A publisher that emits an output to each subscriber just once, and then finishes.
@frozen
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    @inlinable public init(_ output: Output) { self.output = output }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscribeFused(subscriber)
    }

    @inlinable @inline(__always)
    public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
        _Runtime.OneValueCursor(.success(output), name: "Just")
    }
}

extension Just: Equatable where Output: Equatable {}

extension _Runtime {
    /// The cursor of the one-shot sources (`Just`, `Optional.Publisher`, `Result.Publisher`, `Fail`):
    /// a value then `.finished`, or a completion straight away.
    @frozen
    @usableFromInline struct OneValueCursor<Output, Failure: Error>: _Runtime.FusedCursor {
        @usableFromInline var pending: Result<Output, Failure>?
        /// Combine's name for the source's subscription ("Just", "Optional", "Once").
        @usableFromInline let name: StaticString

        /// `.success` sends the value then finishes; `.failure` fails at once.
        @inlinable @inline(__always)
        init(_ result: Result<Output, Failure>, name: StaticString) {
            pending = result
            self.name = name
        }

        /// A cursor that finishes at once.
        @inlinable @inline(__always)
        init(name: StaticString) {
            pending = nil
            self.name = name
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Output, Failure> {
            defer { pending = nil }
            switch pending {
            case .success(let value)?: return .value(value)
            case .failure(let error)?: return .failure(error)
            case nil: return .finished
            }
        }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .yieldsAtMostOneValue.union(.showsSourceSubscription).union(.fusable)
        }

        /// Exhausted when nothing or only a failure is left: `receive(subscriber:)` then completes at once.
        @inlinable var isExhausted: Bool {
            if case .success? = pending { false } else { true }
        }

        /// Combine's mirror shows the value still to be sent.
        @inlinable var _name: StaticString { name }

        @inlinable
        func _reflection(downstream: Any) -> _Runtime.Reflection {
            if case .success(let value)? = pending {
                _Runtime.Reflection("\(name)", [(nil, value)])
            } else {
                _Runtime.Reflection("\(name)")
            }
        }
    }
}
