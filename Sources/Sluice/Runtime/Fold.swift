// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// # Folds
//
// The operators that fold their whole upstream into at most one value (`collect()`, `reduce`, `count`,
// `min`/`max`, `allSatisfy`, `contains`, `first`, `last`) are each written once, as a
// small `_Runtime.Fold` value, and run by one subscription class, `FoldSubscription`. As in Combine, that
// subscription asks upstream for `.unlimited` right after handing downstream its subscription, and
// holds its finish (with the result, if there is one) until downstream has asked for something; a
// failure goes out at once, demand or not. Signals out of order are Combine's too: a value or a
// completion before upstream's subscription is dropped, and a subscription that arrives after
// downstream cancelled is still asked for `.unlimited`.
//
// Threads: upstream calls `receive(_:)` serially, so the fold itself is touched without a lock; the
// per-value cost is one atomic load of the slot's status and the fold's own step. Over a fused upstream there
// is no upstream subscription at all: `run(_:_:)` runs the upstream chain's loop and folds each value
// in, as a `FusedSubscription` would under the fold's `.unlimited`, with the operator's closure
// called directly where the loop is inlined at the `subscribe` call. Only the
// hand-off at the end (upstream's completion against a downstream `request` or `cancel` from another
// thread) goes through the `UpstreamSlot`'s lock, which is never held while calling out.
//
// A `try` operator's fold and its non-throwing twin share one `_Runtime.Fold` type: the fold stores a
// throwing closure (a non-throwing one converts to it for free) and the operator says what a thrown
// error and an upstream failure become (`_Runtime.FoldOperator`).

extension _Runtime {
    /// One folding operator's state and rule, fresh for each subscription.
    public protocol Fold<Input, Output> {
        associatedtype Input
        associatedtype Output

        /// Folds in one upstream value: true to keep going, false once the answer is known (the
        /// subscription then cancels upstream and publishes `result()`). Throws what a `try`
        /// operator's closure throws.
        mutating func fold(_ input: Input) throws -> Bool

        /// The value to publish when the fold ends (`nil`: finish without one). Called once.
        mutating func result() -> Output?
    }
}

extension _Runtime {
    /// A publisher made of one fold over one upstream. Conforming gives it `receive(subscriber:)`.
    public protocol FoldOperator: Publisher {
        associatedtype Upstream: Publisher
        associatedtype Fold: _Runtime.Fold where Fold.Input == Upstream.Output, Fold.Output == Output

        var upstream: Upstream { get }

        /// A fresh fold for one subscription.
        func _makeFold() -> Fold

        /// What the subscription's `description` says: Combine's name for it, which is the
        /// publisher type's own name unless the operator says otherwise.
        static var _name: String { get }

        /// What an upstream failure becomes.
        static func _failure(fromUpstream error: Upstream.Failure) -> Failure

        /// What an error thrown by the fold's closure becomes.
        static func _failure(fromThrown error: any Error) -> Failure

        /// Combine's mirror children for the subscription (see `Introspection.swift`); by default a
        /// reducer's: its subscriber, the running result (the fold's state), and where the stream is.
        static func _children(fold: Fold?, downstream: Any, status: String) -> [Mirror.Child]
    }
}

extension _Runtime.FoldOperator {
    public static var _name: String { String(String(describing: Self.self).prefix { $0 != "<" }) }

    public static func _children(fold: Fold?, downstream: Any, status: String) -> [Mirror.Child] {
        let result = fold.flatMap { Mirror(reflecting: $0).children.first?.value }
        return [("downstream", downstream), ("result", result as Any), ("initial", result as Any), ("status", status)]
    }

    /// Over a synchronous upstream the fold runs the upstream chain itself, in one loop
    /// (`_forEach`); it is what a `FusedSubscription` would do with the fold's `.unlimited`, without
    /// the second object.
    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let fold = _makeFold()
        let subscription = FoldSubscription<Self, S>(fold: fold, downstream: subscriber)
        if Upstream._isFusable && _Runtime.mayFuse {
            subscription.run(upstream, fold)
        } else {
            upstream.subscribe(subscription)
        }
    }
}

extension _Runtime.FoldOperator where Failure == Upstream.Failure {
    @inlinable public static func _failure(fromUpstream error: Failure) -> Failure { error }

    /// The fold of an operator whose failure is upstream's was built from a non-throwing closure.
    @inlinable
    public static func _failure(fromThrown error: any Error) -> Failure {
        trap("\(_name): a non-throwing closure threw \(error)")
    }
}

extension _Runtime.FoldOperator where Failure == any Error {
    @inlinable public static func _failure(fromUpstream error: Upstream.Failure) -> any Error { error }

    @inlinable public static func _failure(fromThrown error: any Error) -> any Error { error }
}

/// Runs any `_Runtime.Fold` between an upstream and its subscriber. See the top of this file.
///
/// Lifetimes: the fold (the operator's closures) and downstream are used only inside calls through
/// `lifetime` (upstream's signals, the fused loop, a request that delivers the parked result); once
/// the stream has ended, the last of those, or the cancel if none is running, lets go of them.
@usableFromInline
final class FoldSubscription<Operator: _Runtime.FoldOperator, Downstream: Subscriber>:
    Subscriber, Subscription, Introspected
where Downstream.Input == Operator.Output, Downstream.Failure == Operator.Failure {
    @usableFromInline typealias Input = Operator.Upstream.Output
    @usableFromInline typealias Failure = Operator.Upstream.Failure

    /// Used only inside calls through `lifetime`; upstream's signals, which alone touch the fold,
    /// are serial.
    @exclusivity(unchecked) @usableFromInline var fold: Releasable<Operator.Fold>
    @exclusivity(unchecked) @usableFromInline var downstream: Releasable<Downstream>
    /// Values and completions are taken only while it is `active`: before upstream's subscription
    /// they are dropped, as Combine's reducers do. Read before every value.
    @usableFromInline let slot = UpstreamSlot<Downstream.Input>()
    @usableFromInline let lifetime: Lifetime

    @inlinable
    init(fold: Operator.Fold, downstream: Downstream) {
        self.fold = Releasable(fold)
        self.downstream = Releasable(downstream)
        lifetime = Lifetime { unsafeDowncast($0, to: FoldSubscription.self).release() }
    }

    @usableFromInline var description: String { "\(Operator._name)" }

    @usableFromInline var customMirror: Mirror {
        let status = "\(slot.current)"
        return Mirror(
            self, children: Operator._children(fold: fold.value, downstream: downstream.value as Any, status: status))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch slot.attach(subscription) {
        case .attached: break
        // As Combine's reducers (ReduceTests.testReduceCancelBeforeSubscription, and the like).
        case .late(afterCancel: true): return subscription.request(.unlimited)
        case .late(afterCancel: false): return subscription.cancel()
        }
        lifetime.call(self) { downstream.with { $0.receive(subscription: self) } }
        if slot.current == .active { subscription.request(.unlimited) }
    }

    /// Folds a fused upstream chain to its end (or to the fold's answer, or to a cancel). Downstream
    /// gets its subscription first, as over any upstream; the loop is the upstream's `_forEach`, in
    /// this call. A starved chain (`_forEach` runs nothing) never sends anything: the fold waits, as
    /// it would unfused.
    ///
    /// `fold` is a copy of the fold this subscription holds, made at the `subscribe` call. The loop
    /// folds into it, not into the stored one: inlined there, it sees the operator's closure itself
    /// and calls it directly, in registers. The fold goes back in place as the stream ends, for
    /// `result()`; the end goes out at once, as unfused (a fan-in upstream may run on after it). No
    /// one else touches the fold meanwhile: with no upstream subscription, this loop is its only user.
    @inlinable @inline(__always)
    func run(_ upstream: Operator.Upstream, _ fold: Operator.Fold) {
        receive(subscription: Subscriptions.empty)
        lifetime.call(self) {
            guard slot.current == .active else { return }
            var fold = fold
            upstream._forEach(
                { input in
                    let ending: Subscribers.Completion<Downstream.Failure>
                    do {
                        if try fold.fold(input) { return slot.current == .active }
                        ending = .finished
                    } catch {
                        ending = .failure(Operator._failure(fromThrown: error))
                    }
                    self.fold = Releasable(fold)
                    conclude(ending, cancellingUpstream: true)
                    return false
                },
                { completion in
                    self.fold = Releasable(fold)
                    complete(completion)
                })
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        lifetime.call(self) { consume(input) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lifetime.call(self) { complete(completion) }
    }

    /// Inside a `lifetime` call: folds in one value.
    @inlinable
    func consume(_ input: Input) {
        guard slot.current == .active else { return }
        do {
            if try fold.with({ try $0.fold(input) }) { return }
            conclude(.finished, cancellingUpstream: true)
        } catch {
            conclude(.failure(Operator._failure(fromThrown: error)), cancellingUpstream: true)
        }
    }

    /// Inside a `lifetime` call: upstream's completion.
    @inlinable
    func complete(_ completion: Subscribers.Completion<Failure>) {
        guard slot.current == .active else { return }
        switch completion {
        case .finished: conclude(.finished, cancellingUpstream: false)
        case .failure(let error): conclude(.failure(Operator._failure(fromUpstream: error)), cancellingUpstream: false)
        }
    }

    /// Inside a `lifetime` call: ends the stream from upstream's side, once: the result goes out now if
    /// downstream has asked (or if there is none), otherwise it is parked for the first `request`.
    @inlinable
    func conclude(_ completion: Subscribers.Completion<Downstream.Failure>, cancellingUpstream: Bool) {
        var value: Downstream.Input?
        if case .finished = completion { value = fold.with { $0.result() } }
        // As Combine's reducers, a finish waits for demand even without a value (ReduceTests'
        // testUpstreamFinishesImmediatelyWithoutDemand); a failure goes out at once.
        let finished = if case .finished = completion { true } else { false }
        let ending = slot.finish(parking: value, parkingAnyway: finished)
        guard ending.didFinish else { return }
        if cancellingUpstream { ending.upstream?.cancel() }
        guard ending.deliversNow else { return }
        lifetime.deliverEnd(value, completion, to: &downstream)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero(on: description)
        let parked = slot.request().waiting
        if let parked {
            lifetime.call(self) { lifetime.deliverEnd(parked, .finished, to: &downstream) }
        }
    }

    @inlinable
    func cancel() {
        slot.end(abandoning: true).upstream?.cancel()
        lifetime.end(self)
    }

    /// Lets go of the fold and downstream: called once, when `lifetime` says so.
    @inlinable
    func release() {
        fold.release()
        downstream.release()
    }
}

extension _Runtime {
    /// The folds that search: `first`, `last`, `contains` and `allSatisfy` (and their `where` and
    /// `try` forms). An element that matches is kept; the search stops there unless it keeps
    /// looking for a later match (`last`); `answer` turns the match found, if any, into the result.
    @frozen
    @usableFromInline struct SearchFold<Input, Output>: _Runtime.Fold {
        @usableFromInline var match: Input?
        @usableFromInline let isMatch: (Input) throws -> Bool
        @usableFromInline let keepsLooking: Bool
        @usableFromInline let answer: (Input?) -> Output?

        @inlinable
        init(isMatch: @escaping (Input) throws -> Bool, keepsLooking: Bool, answer: @escaping (Input?) -> Output?) {
            self.isMatch = isMatch
            self.keepsLooking = keepsLooking
            self.answer = answer
        }

        @inlinable @inline(__always)
        mutating func fold(_ input: Input) throws -> Bool {
            guard try isMatch(input) else { return true }
            match = input
            return keepsLooking
        }

        @inlinable mutating func result() -> Output? { answer(match) }
    }
}

extension _Runtime.SearchFold where Output == Input {
    /// The first element that matches, if any.
    @inlinable
    static func first(where isMatch: @escaping (Input) throws -> Bool) -> Self {
        Self(isMatch: isMatch, keepsLooking: false) { $0 }
    }

    /// The last element that matches, if any; every element is seen.
    @inlinable
    static func last(where isMatch: @escaping (Input) throws -> Bool) -> Self {
        Self(isMatch: isMatch, keepsLooking: true) { $0 }
    }
}

extension _Runtime.SearchFold where Output == Bool {
    /// Whether an element matches: `false` until one does, which settles it.
    @inlinable
    static func contains(where isMatch: @escaping (Input) throws -> Bool) -> Self {
        Self(isMatch: isMatch, keepsLooking: false) { $0 != nil }
    }

    /// Whether every element passes: `true` until one fails, which settles it.
    @inlinable
    static func allSatisfy(_ predicate: @escaping (Input) throws -> Bool) -> Self {
        Self(isMatch: { try !predicate($0) }, keepsLooking: false) { $0 == nil }
    }
}
