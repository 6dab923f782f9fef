// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// What a subscription whose state is a machine does after an event: `flatMap`'s, `merge`'s and
/// `switchToLatest`'s state (`_FlatMapState`, `_MergeState`, `_SwitchToLatestState`) lives under
/// the subscription's lock, each event is a mutating method that returns one of these, and the
/// subscription performs it once it has unlocked, so no lock is held while calling out.
@usableFromInline
enum _MachineAction<Failure: Error> {
    case none
    case cancel(any Subscription)
    case request(any Subscription, Subscribers.Demand)
    /// The stream has ended: cancels these subscriptions, then delivers the completion if there is
    /// one (otherwise the caller that delivers it is busy delivering and does it after).
    case end(cancelling: ContiguousArray<any Subscription>, Subscribers.Completion<Failure>?)
    /// The caller has taken the delivering turn: it delivers what waits.
    case drain

    /// Does it: `complete` delivers the stream's completion, `drain` runs the delivering turn.
    @inlinable
    func perform(complete: (Subscribers.Completion<Failure>) -> Void, drain: () -> Void) {
        switch self {
        case .none: break
        case .cancel(let subscription): subscription.cancel()
        case .request(let subscription, let demand): subscription.request(demand)
        case .end(let subscriptions, let completion):
            for subscription in subscriptions { subscription.cancel() }
            if let completion { complete(completion) }
        case .drain: drain()
        }
    }
}

/// A machine that can tell it has ended, so that its owner can say so in an atomic flag read
/// without the lock (a value that arrives after the end is dropped there).
@usableFromInline
protocol _MachineState {
    var isTerminated: Bool { get }
}

extension _MachineState {
    /// Runs an event of the machine, and publishes its end to `isDone`. The owner calls it under
    /// its lock, so that the exclusive access to its `state` property begins after the lock is
    /// taken (an `inout` argument's access starts at the call site).
    @inlinable @inline(__always)
    mutating func run<Result>(
        _ body: (inout Self) -> Result, publishingEndTo isDone: borrowing Atomic<Bool>
    ) -> Result {
        let result = body(&self)
        if isTerminated { isDone.store(true, ordering: .relaxed) }
        return result
    }
}
