// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The underscored requirements are Sluice's fusion hook (see `Sluice.docc/RuntimeContract.md`). They have
// default implementations: a publisher written outside Sluice conforms exactly as it would to Combine's
// `Publisher`, and is simply never fused.
/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers values to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` must match the publisher's `Output` and `Failure`.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error
    /// The fused form of this publisher's chain, when it can produce its elements synchronously
    /// (then its `_traits` have `fusable`, and the publisher's `_isFusable` is true).
    associatedtype _Cursor: _Runtime.FusedCursor = _Runtime.Unfusable<Output, Failure>
    where _Cursor.Output == Output, _Cursor.Failure == Failure

    /// Attaches the subscriber. `subscribe(_:)` calls this; call that instead.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure

    /// The cursor over this chain. Called when `_isFusable` is true, and on any publisher whose
    /// cursor yields at most one value (`_Cursor._traits` has `yieldsAtMostOneValue`): flatMap and switchToLatest
    /// take such an inner publisher (`Just`, `Fail`, `Empty`, ... and stages over them) from its
    /// cursor instead of subscribing to it, whatever `_isFusable` says.
    func _makeCursor() -> _Cursor

    /// Runs this fused chain to its end in the caller, as the inline `sink` does: each value goes
    /// to `receiveValue`, then the completion to `receiveCompletion`. Only called when `_isFusable`
    /// is true. Returns false, having run nothing, when the chain can never start: an operator in
    /// it asks its upstream for nothing (`flatMap(maxPublishers: .none)`).
    ///
    /// `receiveValue` answers whether to go on. False means the stream has ended above: a stage
    /// finished or failed it (`prefix(while:)`, a `try` operator), or a consumer has its answer
    /// (`first`, `contains`). Whoever answered false has delivered the completion, so the chain
    /// stops at once, runs no closure of its own again and sends no completion.
    ///
    /// The default pulls `_makeCursor()`. A source runs its own loop instead, and a stage
    /// operator passes its upstream a body that applies the stage and calls `receiveValue`
    /// (continuation passing): no value then holds the whole chain, so nothing the optimizer must
    /// forward through memory is larger than a closure, however long the chain (see `RuntimeContract.md`).
    @discardableResult
    func _forEach(_ receiveValue: (Output) -> Bool, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void)
        -> Bool

    /// Subscribes `subscriber` through the stage `makeStage` makes: the run of stage operators
    /// (`map`, `filter`, ...) above this publisher, composed into one stage. A stage operator puts
    /// its own stage under that run and passes the call on to its upstream, so the call walks down
    /// the chain and the first publisher that is not a stage operator subscribes the whole run as
    /// one subscription (see `Runtime/Stage.swift`).
    func _subscribeThrough<Stage: _Runtime.Stage, S: Subscriber>(_ makeStage: () -> Stage, _ subscriber: S)
    where Stage.Input == Output, Stage.UpstreamFailure == Failure, S.Input == Stage.Output, S.Failure == Stage.Failure
}

extension Publisher {
    // Sluice has the hook only when built with the package trait `Introspection`.
    /// Attaches the specified subscriber to this publisher.
    ///
    /// While an `_Introspection` hook is enabled, the subscription is reported to it.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        #if Introspection
        if IntrospectionHooks.isActive { return IntrospectionHooks.subscribe(self, subscriber) }
        #endif
        receive(subscriber: subscriber)
    }
}
