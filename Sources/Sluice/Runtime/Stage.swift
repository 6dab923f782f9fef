// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

extension _Runtime {
    /// One operator that decides, value by value, what comes out: `map`, `filter`, `compactMap`,
    /// `tryMap`, `scan`, ... Each such operator is written once, as a stage, and runs four ways.
    /// Over a synchronous upstream it is fused: pulled inside a `_Runtime.StageCursor` (`next()`),
    /// or pushed by the upstream's own loop through the body `_forEach` passes it (continuation
    /// passing, the route of long chains). Over any other upstream it is a subscriber: inside a
    /// `StageSubscription` of its own, or, for the operators that in Combine pass their upstream's
    /// subscription through, inside a `StageSubscriber` only. See `RuntimeContract.md`.
    public protocol Stage<Input, Output, UpstreamFailure, Failure> {
        associatedtype Input
        associatedtype Output
        /// The failure the stage is given; the failure it passes on unless it says otherwise.
        associatedtype UpstreamFailure: Error = Failure
        associatedtype Failure: Error

        /// What one upstream value becomes. `.skip` asks upstream for one more value in its place.
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure>

        /// What an upstream failure becomes (`mapError`, the `try` operators' `any Error`).
        func mapFailure(_ error: UpstreamFailure) -> Failure

        /// True once the stage has let through all it ever will (`prefix(_:)`): the chain finishes
        /// right after the value that completed it.
        var isComplete: Bool { get }

        /// What the operator is beyond its values: Combine's name for it, whether it passes
        /// upstream's subscription through, and what its own subscription does with signals out of
        /// order. Read off the value path, to choose a route and to introspect.
        static var _description: _Runtime.StageDescription { get }

        /// Combine's mirror children for the operator's subscription; `status` says where the stream is.
        func _children(downstream: Any, status: String) -> [Mirror.Child]
    }
}

extension _Runtime {
    /// What a stage operator is beyond its values, one value per operator (its `_description`):
    /// Combine's name for its subscriber (and for its subscription, unless it passes upstream's
    /// through), what `description` says (see `Introspection.swift`); whether it is one of the
    /// operators that, in Combine, hand downstream their upstream's subscription and forward every
    /// signal they get, whenever it comes (`map`, `filter`, `scan`, ...: a run of them alone is a
    /// subscriber only, `StageSubscriber`); and what its own subscription does with signals out of
    /// order, as Combine's operator does.
    @frozen
    public struct StageDescription: Sendable {
        @usableFromInline let name: StaticString
        @usableFromInline let passesSubscriptionThrough: Bool
        @usableFromInline let edges: StageEdges

        @inlinable
        init(_ name: StaticString, passesSubscriptionThrough: Bool = false, edges: StageEdges = .dropping) {
            self.name = name
            self.passesSubscriptionThrough = passesSubscriptionThrough
            self.edges = edges
        }
    }

    /// What a stage's own subscription (`StageSubscription`) does with a signal that comes out of
    /// order: from upstream before its subscription, or a subscription after downstream cancelled.
    /// Combine's operators differ here by family, and OpenCombine's Apple-validated suite records each
    /// (`testReceiveValueBeforeSubscription`, `testCancelBeforeSubscription`, ... in every operator's tests).
    @usableFromInline
    struct StageEdges: Sendable {
        /// A value or completion before the subscription, or a request before there is one, traps.
        @usableFromInline let trapsBeforeSubscription: Bool
        /// A value before the subscription goes through the stage to downstream; otherwise it is dropped.
        @usableFromInline let processesValueBeforeSubscription: Bool
        /// A completion before the subscription is passed on; otherwise it is dropped.
        @usableFromInline let forwardsCompletionBeforeSubscription: Bool
        /// A subscription that arrives after downstream cancelled is cancelled; otherwise it is dropped
        /// untouched.
        @usableFromInline let cancelsLateSubscription: Bool

        /// Drops what comes before the subscription and a late subscription (`drop(while:)`, `output`).
        @usableFromInline static let dropping = _Runtime.StageEdges(
            trapsBeforeSubscription: false, processesValueBeforeSubscription: false,
            forwardsCompletionBeforeSubscription: false, cancelsLateSubscription: false)
        /// Combine's filtering operators (`tryFilter`, `tryCompactMap`, `prefix(while:)`,
        /// `removeDuplicates`, ...): a signal before the subscription traps; a late subscription is cancelled.
        @usableFromInline static let filtering = _Runtime.StageEdges(
            trapsBeforeSubscription: true, processesValueBeforeSubscription: false,
            forwardsCompletionBeforeSubscription: false, cancelsLateSubscription: true)
        /// `tryMap` and `tryScan`: a value before the subscription still goes through.
        @usableFromInline static let transforming = _Runtime.StageEdges(
            trapsBeforeSubscription: false, processesValueBeforeSubscription: true,
            forwardsCompletionBeforeSubscription: false, cancelsLateSubscription: false)
        /// `encode` and `decode`: a value and a completion before the subscription still go through.
        @usableFromInline static let coding = _Runtime.StageEdges(
            trapsBeforeSubscription: false, processesValueBeforeSubscription: true,
            forwardsCompletionBeforeSubscription: true, cancelsLateSubscription: false)

        @inlinable
        init(
            trapsBeforeSubscription: Bool, processesValueBeforeSubscription: Bool,
            forwardsCompletionBeforeSubscription: Bool, cancelsLateSubscription: Bool
        ) {
            self.trapsBeforeSubscription = trapsBeforeSubscription
            self.processesValueBeforeSubscription = processesValueBeforeSubscription
            self.forwardsCompletionBeforeSubscription = forwardsCompletionBeforeSubscription
            self.cancelsLateSubscription = cancelsLateSubscription
        }
    }
}

extension _Runtime.Stage {
    @inlinable public var isComplete: Bool { false }

    @inlinable public func _children(downstream: Any, status: String) -> [Mirror.Child] { [] }

    /// What the subscription shows a debugger.
    @inlinable
    func _reflection(downstream: Any, status: String) -> _Runtime.Reflection {
        _Runtime.Reflection("\(Self._description.name)", _children(downstream: downstream, status: status))
    }
}

extension _Runtime.Stage where UpstreamFailure == Failure {
    @inlinable public func mapFailure(_ error: Failure) -> Failure { error }
}

extension _Runtime {
    /// The stage of a `try` operator (and of `encode`/`decode`): a thrown error fails the stream, so
    /// it fails with `any Error`, upstream's failure as it is.
    public protocol ThrowingStage: _Runtime.Stage where Failure == any Error {}
}

extension _Runtime.ThrowingStage {
    @inlinable @inline(__always) public func mapFailure(_ error: UpstreamFailure) -> any Error { error }
}

extension _Runtime {
    /// A fused upstream chain with one more stage on top.
    @frozen
    @usableFromInline struct StageCursor<Upstream: _Runtime.FusedCursor, Stage: _Runtime.Stage>: _Runtime.FusedCursor
    where Stage.Input == Upstream.Output, Stage.UpstreamFailure == Upstream.Failure {
        @usableFromInline var upstream: Upstream
        @usableFromInline var stage: Stage

        @inlinable @inline(__always)
        init(upstream: Upstream, stage: Stage) {
            self.upstream = upstream
            self.stage = stage
        }

        @inlinable @inline(__always)
        mutating func next() -> _Runtime.StageStep<Stage.Output, Stage.Failure> {
            // A completed stage (`prefix(_:)`) must not pull another element through the stages below it.
            if stage.isComplete { return .finished }
            return switch upstream.next() {
            case .value(let value): stage.step(value)
            case .skip: .skip
            case .finished: .finished
            case .failure(let error): .failure(stage.mapFailure(error))
            }
        }

        /// A completed stage has cancelled its upstream: nothing more is asked of it.
        @inlinable var isExhausted: Bool { mutating get { stage.isComplete || upstream.isExhausted } }

        /// A stage turns one element into at most one, and passes upstream's other traits on; the
        /// chain shows its source's subscription only if the stage passes upstream's through.
        @inlinable static var _traits: _Runtime.CursorTraits {
            Stage._description.passesSubscriptionThrough
                ? Upstream._traits : Upstream._traits.subtracting(.showsSourceSubscription)
        }

        @inlinable var _name: StaticString {
            Stage._description.passesSubscriptionThrough ? upstream._name : Stage._description.name
        }

        @inlinable var _isStarved: Bool { upstream._isStarved }

        @inlinable mutating func _didEnd() { upstream._didEnd() }

        @inlinable static func _endedChildren(completion: Any?) -> [Mirror.Child] {
            Stage._description.passesSubscriptionThrough ? Upstream._endedChildren(completion: completion) : []
        }

        @inlinable
        func _reflection(downstream: Any) -> _Runtime.Reflection {
            Stage._description.passesSubscriptionThrough
                ? upstream._reflection(downstream: downstream)
                : stage._reflection(downstream: downstream, status: "subscribed")
        }
    }
}

extension _Runtime {
    /// An operator made of one stage over one upstream. Conforming gives it `receive(subscriber:)`
    /// and its fused form for free; its `_Cursor` is inferred from the `_makeCursor()` below.
    public protocol StageOperator: Publisher {
        associatedtype Upstream: Publisher
        associatedtype Stage: _Runtime.Stage
        where
            Stage.Input == Upstream.Output, Stage.UpstreamFailure == Upstream.Failure,
            Stage.Output == Output, Stage.Failure == Failure

        var upstream: Upstream { get }

        /// A fresh stage for one subscription (stateful stages start over for each subscriber).
        func _makeStage() -> Stage
    }
}

extension _Runtime.StageOperator {
    @inlinable @inline(__always)
    public func _makeCursor() -> some _Runtime.FusedCursor<Output, Failure> {
        _Runtime.StageCursor(upstream: upstream._makeCursor(), stage: _makeStage())
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        #if Introspection
        // An `_Introspection` hook sees each operator's boundary, as in Combine's chain.
        guard _Runtime.mayFuse else {
            if Stage._description.passesSubscriptionThrough {
                return upstream.subscribe(StageSubscriber(stage: _makeStage(), downstream: subscriber))
            }
            return upstream.subscribe(
                StageSubscription(stage: Releasable(_makeStage()), downstream: Releasable(subscriber)))
        }
        #endif
        upstream._subscribeThrough(_makeStage, subscriber)
    }

    /// The stage, between its upstream's loop and `receiveValue` (see `Publisher._forEach`): what
    /// `_Runtime.StageCursor` does, as a body. A stage that ends the stream (`prefix(while:)`, a `try`
    /// operator's error, `prefix(_:)` complete) delivers the completion and stops upstream.
    @inlinable @inline(__always) @discardableResult
    public func _forEach(
        _ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void
    ) -> Bool {
        var stage = _makeStage()
        // Complete before any value (`prefix(0)`): the cursor finishes without pulling upstream.
        if stage.isComplete { return forEachByCursor(receiveValue, receiveCompletion) }
        return upstream._forEach(
            { input in
                switch stage.step(input) {
                case .value(let value):
                    guard receiveValue(value) else { return false }
                case .skip:
                    break
                case .finished:
                    receiveCompletion(.finished)
                    return false
                case .failure(let error):
                    receiveCompletion(.failure(error))
                    return false
                }
                guard stage.isComplete else { return true }
                receiveCompletion(.finished)
                return false
            },
            { completion in
                switch completion {
                case .finished: receiveCompletion(.finished)
                case .failure(let error): receiveCompletion(.failure(stage.mapFailure(error)))
                }
            })
    }

    /// This stage goes under the run above it, and the call on down the chain.
    ///
    /// Top-down and always inlined: the stage type grows at each level, which the generic
    /// specialiser takes for an endless recursion and stops specialising (it did, when this was
    /// merely `@inlinable`: the 13-stage lifecycle cost 94.8 M instructions per 1,000 rounds). The
    /// inliner instead folds the whole walk into the caller, where every type is concrete. What
    /// goes down is how to make the run, not the run: the bottom builds it once, in place, instead
    /// of each level copying a growing value into a bigger one.
    @inlinable @inline(__always)
    public func _subscribeThrough<Above: _Runtime.Stage, S: Subscriber>(_ makeStage: () -> Above, _ subscriber: S)
    where Above.Input == Output, Above.UpstreamFailure == Failure, S.Input == Above.Output, S.Failure == Above.Failure {
        upstream._subscribeThrough({ _Runtime.ComposedStage(first: _makeStage(), then: makeStage()) }, subscriber)
    }
}

extension Publisher {
    /// The bottom of a run of stage operators subscribes it: a fused chain as one `FusedSubscription`
    /// driving this publisher's cursor with the run on top; any other as one `StageSubscription`
    /// (or a `StageSubscriber`, for a run that passes upstream's subscription through) to this
    /// publisher, so `subject.map.filter.map` subscribes a single subscription.
    @inlinable @inline(__always)
    public func _subscribeThrough<Stage: _Runtime.Stage, S: Subscriber>(_ makeStage: () -> Stage, _ subscriber: S)
    where Stage.Input == Output, Stage.UpstreamFailure == Failure, S.Input == Stage.Output, S.Failure == Stage.Failure {
        if Self.fusesUnderAnyDemand {
            Sluice.subscribeFused(_Runtime.StageCursor(upstream: _makeCursor(), stage: makeStage()), subscriber)
        } else if Stage._description.passesSubscriptionThrough {
            subscribe(StageSubscriber(stage: makeStage(), downstream: subscriber))
        } else {
            subscribe(StageSubscription(stage: Releasable(makeStage()), downstream: Releasable(subscriber)))
        }
    }
}

extension _Runtime {
    /// Two stages run as one: what `first` lets through goes on to `then`.
    ///
    /// Observably the same as two stage subscriptions in a row: a value dropped anywhere asks upstream
    /// for one more; a stage that finishes or fails ends the stream, its failure mapped by the stages
    /// after it; the chain is complete when either stage is.
    @frozen
    @usableFromInline struct ComposedStage<First: _Runtime.Stage, Then: _Runtime.Stage>: _Runtime.Stage
    where Then.Input == First.Output, Then.UpstreamFailure == First.Failure {
        @usableFromInline typealias Input = First.Input
        @usableFromInline typealias Output = Then.Output
        @usableFromInline typealias UpstreamFailure = First.UpstreamFailure
        @usableFromInline typealias Failure = Then.Failure

        @usableFromInline var first: First
        @usableFromInline var then: Then

        @inlinable @inline(__always)
        init(first: First, then: Then) {
            self.first = first
            self.then = then
        }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, Failure> {
            switch first.step(input) {
            case .value(let value): then.step(value)
            case .skip: .skip
            case .finished: .finished
            case .failure(let error): .failure(then.mapFailure(error))
            }
        }

        @inlinable @inline(__always)
        func mapFailure(_ error: UpstreamFailure) -> Failure { then.mapFailure(first.mapFailure(error)) }

        @inlinable var isComplete: Bool { first.isComplete || then.isComplete }

        /// As in Combine, a subscriber of the run gets the subscription of the topmost stage that does
        /// not pass its upstream's through; a run of pass-through stages only is named after its bottom
        /// stage, the subscriber that its upstream sees.
        @inlinable static var showsThen: Bool { !Then._description.passesSubscriptionThrough }

        /// Upstream talks to the bottom stage: its edges are the run's.
        @inlinable static var _description: _Runtime.StageDescription {
            _Runtime.StageDescription(
                showsThen ? Then._description.name : First._description.name,
                passesSubscriptionThrough: First._description.passesSubscriptionThrough
                    && Then._description.passesSubscriptionThrough,
                edges: First._description.edges)
        }

        @inlinable
        func _children(downstream: Any, status: String) -> [Mirror.Child] {
            Self.showsThen
                ? then._children(downstream: downstream, status: status)
                : first._children(downstream: downstream, status: status)
        }
    }
}

extension Publisher {
    /// Subscribes `subscriber` to this publisher's fused chain.
    @inlinable @inline(__always)
    func subscribeFused<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        Sluice.subscribeFused(_makeCursor(), subscriber)
    }
}

/// Subscribes `subscriber` to a fused chain's cursor. A chain with nothing to send completes at
/// once, without waiting for demand, as the sources do in Combine; its subscription is the
/// source's `Subscriptions.empty`, or, under an operator that hands on a subscription of its own,
/// one named as that operator's.
@inlinable @inline(__always)
func subscribeFused<Cursor: _Runtime.FusedCursor, S: Subscriber>(_ cursor: Cursor, _ subscriber: S)
where S.Input == Cursor.Output, S.Failure == Cursor.Failure {
    var cursor = cursor
    guard !cursor.isExhausted else {
        subscriber.receive(
            subscription: Cursor._traits.contains(.showsSourceSubscription)
                ? Subscriptions.empty : EmptySubscription(cursor._name))
        subscriber.receive(completion: cursor.exhaustedCompletion())
        return
    }
    subscriber.receive(subscription: FusedSubscription(cursor: cursor, downstream: subscriber))
}
