// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// `Empty` is not fused into chains: whether it ever completes is a stored value, while fusion is decided from
// static types, and a fused chain has no way to wait forever. Nothing is lost: it sends no value, so a chain
// over it runs no closure per element. Its cursor (`_Runtime.EmptyCursor`) serves the consumers that take a
// one-shot publisher without subscribing to it (`flatMap`, `switchToLatest`): they ask it whether it is
// starved, that is, never completes.
/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// Each subscriber gets `Subscriptions.empty` and then, if `completeImmediately` is true, `.finished` at
/// once, whatever its demand; otherwise nothing more, ever.
@frozen
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether the publisher finishes as soon as a subscriber attaches, or never completes.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types so that they need not be inferred.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // `Subscriptions.empty` ignores `cancel()`: as in Combine, a cancel from inside
        // `receive(subscription:)` does not stop the completion.
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately { subscriber.receive(completion: .finished) }
    }

    @inlinable public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
        _Runtime.EmptyCursor(completes: completeImmediately)
    }
}

extension _Runtime {
    /// `Empty` as a one-shot cursor: no value, then `.finished`, or, starved, nothing ever.
    @frozen
    @usableFromInline struct EmptyCursor<Output, Failure: Error>: _Runtime.FusedCursor {
        @usableFromInline let completes: Bool

        @inlinable init(completes: Bool) { self.completes = completes }

        @inlinable mutating func next() -> _Runtime.StageStep<Output, Failure> { .finished }

        @inlinable var isExhausted: Bool { true }

        @inlinable static var _traits: _Runtime.CursorTraits {
            .yieldsAtMostOneValue.union(.showsSourceSubscription)
        }

        /// `Empty(completeImmediately: false)`: the inner publisher never ends.
        @inlinable var _isStarved: Bool { !completes }

        @inlinable var _name: StaticString { "Empty" }
    }
}
