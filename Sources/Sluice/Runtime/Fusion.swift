// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension _Runtime {
    /// What one step of a fused chain produced. See `RuntimeContract.md`.
    @frozen
    public enum StageStep<Output, Failure> {
        /// The source element made it through every stage as this value.
        case value(Output)
        /// A stage dropped the element (`filter`, `compactMap`, ...).
        case skip
        /// The chain finished (the source ran out, or a stage like `prefix(while:)` ended it).
        case finished
        /// The chain failed (a source failure, or a `try` closure threw).
        case failure(Failure)
    }
}

extension _Runtime {
    /// A synchronous source and the stages on top of it, advanced one source element at a time.
    public protocol FusedCursor<Output, Failure> {
        associatedtype Output
        /// Unconstrained on purpose: a second path to `Failure: Error` (besides the publisher's own) made
        /// the compiler's conformance substitution exponential in a chain's length (see `RuntimeContract.md`).
        associatedtype Failure

        /// Pulls one source element through every stage.
        mutating func next() -> _Runtime.StageStep<Output, Failure>

        /// True once the source has no element left: checked after each step so that the chain
        /// finishes right after its last element, without waiting for more demand.
        ///
        /// Once it is true, `next()` only reports the chain's completion (`.finished`, or the failure a
        /// source such as `Fail` or `Record` ends with) and runs no closure: see `exhaustedCompletion()`.
        ///
        /// Asked right after a value has been delivered, it is where an operator does what Combine's
        /// does when its upstream completes after that value: a concatenation starts its suffix here.
        var isExhausted: Bool { mutating get }

        /// What the chain is, beyond its values: what its consumers may take for granted and what
        /// they must do for it (`_Runtime.CursorTraits`). Defaults to none.
        static var _traits: _Runtime.CursorTraits { get }

        /// What the chain's subscription shows a debugger: Combine's description and mirror of the
        /// subscription a subscriber of this chain would get (see `Introspection.swift`). Defaults
        /// to `_name` without children.
        func _reflection(downstream: Any) -> _Runtime.Reflection

        /// The description of the chain's subscription once the cursor is gone (the chain ended), as
        /// Combine's sources describe themselves then ("Sequence", "Just").
        var _name: StaticString { get }

        /// The mirror children of the chain's subscription once the cursor is gone, given the
        /// completion it delivered (nil after a cancel). Defaults to none.
        static func _endedChildren(completion: Any?) -> [Mirror.Child]

        /// True when the chain can never start: an operator in it asks its upstream for nothing
        /// (`flatMap(maxPublishers: .none)`). The consumer then waits forever, as it would unfused,
        /// instead of running the cursor. Only a cursor that needs unlimited demand can be starved.
        var _isStarved: Bool { get }

        /// What the chain's operators still do once its stream has ended and the completion has been
        /// delivered: a merge subscribes its later upstreams then, and cancels them at once, so their
        /// cursors are made and dropped. Called by the consumers that run a cursor needing unlimited
        /// demand; does nothing by default.
        mutating func _didEnd()

        /// At least how many values the cursor gives in all, as far as its source knows
        /// (`Sequence.underestimatedCount`): a hint for a consumer that buffers them all before it
        /// delivers any (zip), to size its buffer. Defaults to 0.
        var _underestimatedCount: Int { get }
    }
}

extension _Runtime.FusedCursor {
    @inlinable public static var _traits: _Runtime.CursorTraits { [] }

    @inlinable public func _reflection(downstream: Any) -> _Runtime.Reflection { _Runtime.Reflection("\(_name)") }

    @inlinable public static func _endedChildren(completion: Any?) -> [Mirror.Child] { [] }

    @inlinable public var _isStarved: Bool { false }

    @inlinable public mutating func _didEnd() {}

    @inlinable public var _underestimatedCount: Int { 0 }
}

extension _Runtime {
    /// What a fused chain's cursor is, beyond its values: one static set per cursor type. Combine
    /// sets with `union`, not an array literal: a literal builds an array before it folds, which
    /// weighs on the inliner's budget for the loops that ask (merge of eight sequences: +4.5 %
    /// instructions).
    @frozen
    public struct CursorTraits: OptionSet, Sendable {
        public let rawValue: UInt8

        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The chain yields at most one value before its completion (`Just`, `Optional`, `Result`,
        /// `Fail`, `Empty` and stages over them). `flatMap` and `switchToLatest` then take that value
        /// and completion from the cursor instead of subscribing to the inner publisher.
        @inlinable static var yieldsAtMostOneValue: Self { Self(rawValue: 1) }

        /// The chain's subscription takes a zero request without trapping, as Combine's sequence and
        /// recording subscriptions do.
        @inlinable static var acceptsZeroDemand: Self { Self(rawValue: 2) }

        /// The chain's subscription is its source's: a source's cursor, or stages over one that all
        /// pass upstream's subscription through. A chain that ends before it starts then hands its
        /// subscriber `Subscriptions.empty`, as its source does in Combine; any other shows its top
        /// operator's `_name`, as that operator's own subscription does.
        @inlinable static var showsSourceSubscription: Self { Self(rawValue: 4) }

        /// An operator in the chain joins streams (`flatMap`, `switchToLatest`, `merge`, `zip`): its
        /// cursor is exact only for a consumer that asks for `.unlimited` before anything can be
        /// observed (the inline `sink`, the folds). Under finite demand those operators run
        /// upstream's closures ahead of demand, which a cursor, pulled one element at a time, would not.
        @inlinable static var needsUnlimitedDemand: Self { Self(rawValue: 8) }

        /// The cursor can drive its whole chain in place of the chain's subscriptions: its
        /// publisher's `_isFusable`. A source's cursor has it; an operator's has it when the cursors
        /// and publishers it runs can be driven too.
        @inlinable static var fusable: Self { Self(rawValue: 16) }

        /// `.fusable` when `condition` holds, none otherwise.
        @inlinable static func fusable(when condition: Bool) -> Self { condition ? .fusable : Self(rawValue: 0) }
    }
}

extension _Runtime.FusedCursor {
    /// Whether any consumer, whatever its demand, may drive the chain by this cursor (see
    /// `Publisher.fusesUnderAnyDemand`).
    @inlinable static var fusesUnderAnyDemand: Bool {
        _traits.contains(.fusable) && !_traits.contains(.needsUnlimitedDemand) && _Runtime.mayFuse
    }
}

extension _Runtime.FusedCursor where Failure: Error {
    /// The completion of an exhausted chain. Asked of the cursor rather than assumed `.finished`,
    /// because a source may end with a failure right after its last value (`Record`).
    @inlinable @inline(__always)
    mutating func exhaustedCompletion() -> Subscribers.Completion<Failure> {
        if case .failure(let error) = next() { .failure(error) } else { .finished }
    }
}

extension _Runtime {
    /// The cursor of a publisher that cannot be fused: it is never asked for anything.
    @frozen
    public struct Unfusable<Output, Failure: Error>: _Runtime.FusedCursor {
        @inlinable init() {}

        @inlinable public mutating func next() -> _Runtime.StageStep<Output, Failure> { .finished }

        @inlinable public var isExhausted: Bool { true }

        @inlinable public var _name: StaticString { "" }
    }
}

extension Publisher {
    /// Whether any subscriber, whatever its demand, can be given this chain's fused subscription
    /// (`subscribeFused`): a chain whose cursor needs unlimited demand is fused only by the
    /// consumers that ask for it at once, and subscribed through its operators otherwise.
    @inlinable static var fusesUnderAnyDemand: Bool { _Cursor.fusesUnderAnyDemand }

    /// Whether `_makeCursor()` can drive this whole chain synchronously: its cursor's `fusable` trait.
    @inlinable public static var _isFusable: Bool { _Cursor._traits.contains(.fusable) }
}

extension Publisher {
    /// The default: pulls the chain's cursor in a loop (`forEachByCursor`).
    @inlinable @inline(__always) @discardableResult
    public func _forEach(
        _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    ) -> Bool {
        forEachByCursor(receiveValue, receiveCompletion)
    }

    /// `_forEach` by the chain's cursor: the stream's whole life in one loop, in the caller.
    @inlinable @inline(__always)
    func forEachByCursor(
        _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    ) -> Bool {
        var cursor = _makeCursor()
        if cursor._isStarved { return false }
        // nil when `receiveValue` ended the stream itself.
        var completion: Subscribers.Completion<Failure>?
        loop: while true {
            switch cursor.next() {
            case .value(let value):
                guard receiveValue(value) else { break loop }
                if cursor.isExhausted {
                    completion = cursor.exhaustedCompletion()
                    break loop
                }
            case .skip:
                if cursor.isExhausted {
                    completion = cursor.exhaustedCompletion()
                    break loop
                }
            case .finished:
                completion = .finished
                break loop
            case .failure(let error):
                completion = .failure(error)
                break loop
            }
        }
        if let completion { receiveCompletion(completion) }
        if _Cursor._traits.contains(.needsUnlimitedDemand) { cursor._didEnd() }
        return true
    }
}

extension Publisher where _Cursor == _Runtime.Unfusable<Output, Failure> {
    @inlinable public func _makeCursor() -> _Runtime.Unfusable<Output, Failure> { _Runtime.Unfusable() }
}
