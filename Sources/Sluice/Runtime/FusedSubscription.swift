import Synchronization

/// Drives a fused chain for any subscriber. See `Runtime.swift`.
///
/// The thread that moves demand from 0 to non-zero owns the drain loop; others only add demand.
/// The owner is the only one that touches the cursor or calls downstream, so signals are serial.
///
/// `request` arrives through `any Subscription`, which for a generic class always runs the
/// unspecialised method body. So the drain is entered through `drainEntry`, a closure made in
/// `init`: `init` is inlined where the subscription is created (in the user's module, with
/// concrete types), so the closure, and the whole loop it calls, is specialised.
@usableFromInline
final class FusedSubscription<Cursor: _FusedCursor, Downstream: Subscriber>: Subscription, CustomStringConvertible
where Downstream.Input == Cursor.Output, Downstream.Failure == Cursor.Failure {
    @exclusivity(unchecked)
    @usableFromInline var cursor: Cursor
    @usableFromInline let downstream: Downstream
    @usableFromInline let demand = DemandCounter()
    /// Set by `cancel()` and on termination; read before every element.
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// The source's name, or `nil` to describe the chain by its cursor's type (only when asked).
    @usableFromInline let name: StaticString?
    /// The specialised drain loop (see above).
    @usableFromInline let drainEntry: (FusedSubscription) -> Void

    @inlinable
    init(cursor: Cursor, downstream: Downstream, name: StaticString?) {
        self.cursor = cursor
        self.downstream = downstream
        self.name = name
        drainEntry = { $0.drain() }
    }

    @usableFromInline var description: String { name.map { "\($0)" } ?? String(describing: Cursor.self) }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand._assertNonZero()
        guard !isDone.load(ordering: .relaxed) else { return }
        if self.demand.add(demand) == 0 { drainEntry(self) }
    }

    @inlinable
    func cancel() {
        isDone.store(true, ordering: .relaxed)
    }

    @inlinable
    func drain() {
        var outstanding = demand.load()
        while true {
            var emitted: UInt = 0
            var returned = Subscribers.Demand.none
            while emitted < outstanding || outstanding == DemandCounter.unlimited {
                if isDone.load(ordering: .relaxed) { return }
                switch cursor.next() {
                case .value(let value):
                    let more = downstream.receive(value)
                    if outstanding != DemandCounter.unlimited {
                        emitted += 1
                        if more != .none { returned += more }
                    }
                case .skip:
                    break
                case .finished:
                    return finish(.finished)
                case .failure(let error):
                    return finish(.failure(error))
                }
                if cursor.isExhausted { return finish(cursor._completion()) }
            }
            outstanding = demand.settle(emitted: emitted, returned: returned)
            if outstanding == 0 { return }
        }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return }
        downstream.receive(completion: completion)
    }
}
