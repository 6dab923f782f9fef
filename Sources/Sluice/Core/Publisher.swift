/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers values to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` must match the publisher's `Output` and `Failure`.
///
/// The underscored requirements are Sluice's fusion hook (see `Runtime/Runtime.swift`). They have
/// default implementations: a publisher written outside Sluice conforms exactly as it would to
/// Combine's `Publisher`, and is simply never fused.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error
    /// The fused form of this publisher's chain, when it can produce its elements synchronously.
    associatedtype _Cursor: _FusedCursor = _Unfusable<Output, Failure>
    where _Cursor.Output == Output, _Cursor.Failure == Failure

    /// Attaches the subscriber. `subscribe(_:)` calls this; call that instead.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure

    /// Whether `_makeCursor()` can drive this whole chain synchronously.
    static var _isFusable: Bool { get }

    /// The cursor over this chain; only called when `_isFusable` is true.
    func _makeCursor() -> _Cursor

    /// Runs this fused chain to its end in the caller, as the inline `sink` does: each value goes
    /// to `receiveValue`, then the completion to `receiveCompletion`. Only called when `_isFusable`
    /// is true and the cursor does not need unlimited demand.
    ///
    /// The default pulls `_makeCursor()`. A source runs its own loop instead, and a stage
    /// operator passes its upstream a body that applies the stage and calls `receiveValue`
    /// (continuation passing): no value then holds the whole chain, so nothing the optimizer must
    /// forward through memory is larger than a closure, however long the chain (see `Runtime.swift`).
    func _forEach(_ receiveValue: (Output) -> Void, _ receiveCompletion: (Subscribers.Completion<Failure>) -> Void)

    /// The publisher under this one's run of stage operators (`map`, `filter`, ...): itself, unless
    /// it is a stage operator. A run of stage operators over an unfused upstream subscribes one
    /// subscription to this root (see `Runtime/Stage.swift`).
    associatedtype _StageRoot: Publisher = Self
    /// The run of stage operators from `_StageRoot` up to this publisher, composed into one stage.
    associatedtype _RootStage: _Stage = _IdentityStage<Output, Failure>
    where _RootStage.Input == _StageRoot.Output, _RootStage.UpstreamFailure == _StageRoot.Failure,
        _RootStage.Output == Output, _RootStage.Failure == Failure

    /// See `_StageRoot`.
    var _stageRoot: _StageRoot { get }

    /// A fresh `_RootStage` for one subscription.
    func _makeRootStage() -> _RootStage
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}
