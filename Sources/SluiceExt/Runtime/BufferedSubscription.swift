import Sluice

/// A subscription that keeps what it is given for its subscriber, and delivers it as demand allows:
/// `ReplaySubject`'s subscriptions and `create`'s.
///
/// - Values wait in a backlog, in order; the completion comes after them, demand or not, once the
///   subscriber has its subscription (`handedOver()`).
/// - One thread at a time delivers. A value, request or completion that comes meanwhile (from
///   another thread, or from inside the subscriber's `receive`) is taken up by the delivering
///   thread, so the subscriber is never entered twice at once.
/// - The stream ends when the completion is delivered or the subscriber cancels: the subscriber and
///   the backlog are let go of, and the `whenEnded` action runs, once.
///
/// The base class erases the subscriber's type, so that a subject can keep a list of them.
class BufferedSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// Adds `value` to the backlog (it is delivered by `deliver()`).
    func enqueue(_ value: Output) {}
    /// Sets the completion that follows the backlog (it is delivered by `deliver()`).
    func enqueue(_ completion: Subscribers.Completion<Failure>) {}
    /// Delivers what can be delivered, unless another thread is delivering.
    func deliver() {}
    /// The subscriber has its subscription: a completion may now be delivered.
    func handedOver() {}
    /// Runs `action` when the stream ends, or now if it has ended.
    func whenEnded(_ action: @escaping (BufferedSubscription) -> Void) {}
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}

final class BufferedSubscriptionOf<Downstream: Subscriber>: BufferedSubscription<Downstream.Input, Downstream.Failure> {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    /// The state machine: each step says what to deliver, and the delivering thread calls the
    /// subscriber outside the lock.
    struct State {
        var downstream: Downstream?
        var backlog: Backlog<Output>
        var completion: Subscribers.Completion<Failure>?
        var demand = Subscribers.Demand.none
        /// The subscriber has its subscription: before that, a completion waits.
        var isHandedOver = false
        /// A thread is delivering: others only add to the backlog or the demand.
        var isDelivering = false
        var whenEnded: ((BufferedSubscription<Output, Failure>) -> Void)?

        enum Step {
            case value(Output, Downstream)
            case completion(Subscribers.Completion<Failure>, Downstream)
            case idle
        }

        /// Becomes the delivering thread, unless one already is.
        mutating func startDelivering() -> Bool {
            guard !isDelivering, downstream != nil else { return false }
            isDelivering = true
            return true
        }

        /// The next thing to deliver, or `idle`, which ends the turn.
        mutating func next() -> Step {
            if let downstream {
                if demand > 0, let value = backlog.popFirst() {
                    demand -= 1
                    return .value(value, downstream)
                }
                if backlog.isEmpty, isHandedOver, let completion {
                    self.downstream = nil
                    return .completion(completion, downstream)
                }
            }
            isDelivering = false
            return .idle
        }

        /// Ends the stream (a cancel): what it lets go of, to release outside the lock.
        mutating func end() -> (Downstream?, ((BufferedSubscription<Output, Failure>) -> Void)?) {
            backlog.removeAll()
            return (downstream.take(), whenEnded.take())
        }
    }

    private let lock = Lock()
    private var state: State

    init(
        _ description: String, downstream: Downstream, backlog: Backlog<Output> = Backlog(),
        completion: Subscribers.Completion<Failure>? = nil
    ) {
        state = State(downstream: downstream, backlog: backlog, completion: completion)
        super.init(description)
    }

    override func enqueue(_ value: Output) {
        lock.withLock {
            if state.downstream != nil, state.completion == nil { state.backlog.append(value) }
        }
    }

    override func enqueue(_ completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            if state.completion == nil { state.completion = completion }
        }
    }

    override func handedOver() {
        lock.withLock { state.isHandedOver = true }
        deliver()
    }

    override func whenEnded(_ action: @escaping (BufferedSubscription<Output, Failure>) -> Void) {
        let hasEnded = lock.withLock { () -> Bool in
            guard state.downstream != nil else { return true }
            state.whenEnded = action
            return false
        }
        if hasEnded { action(self) }
    }

    override func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0,
            "API violation: request(_:) was called with demand .none; a subscription must be asked for at least one value"
        )
        lock.withLock { state.demand += demand }
        deliver()
    }

    override func deliver() {
        guard lock.withLock({ state.startDelivering() }) else { return }
        while true {
            switch lock.withLock({ state.next() }) {
            case .value(let value, let downstream):
                let more = downstream.receive(value)
                if more > 0 { lock.withLock { state.demand += more } }
            case .completion(let completion, let downstream):
                downstream.receive(completion: completion)
                lock.withLock { state.whenEnded.take() }?(self)
            case .idle:
                return
            }
        }
    }

    override func cancel() {
        let (released, whenEnded) = lock.withLock { state.end() }
        withExtendedLifetime(released) {}
        whenEnded?(self)
    }
}
