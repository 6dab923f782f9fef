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

extension Lock {
    /// Runs an event of `state` under the lock, and publishes the machine's end to `isDone`.
    @inlinable @inline(__always)
    func withState<State: _MachineState, Result>(
        _ state: inout State, publishingEndTo isDone: borrowing Atomic<Bool>, _ body: (inout State) -> Result
    ) -> Result {
        lock()
        let result = body(&state)
        if state.isTerminated { isDone.store(true, ordering: .relaxed) }
        unlock()
        return result
    }
}
