import Sluice

/// A subject that replays the last values it was sent, and its completion, to every new
/// subscriber, then passes on what it is sent next.
///
/// - A new subscriber receives, as its demand allows, the last `bufferSize` values sent before it
///   subscribed, then every value sent after, then the completion if one was sent. A subscriber that
///   comes after the completion receives the last values and the completion.
/// - Each subscriber has its own backlog: a value it has no demand for waits there, in order, until
///   it asks (nothing is dropped, unlike `PassthroughSubject`). The completion comes after the
///   backlog, demand or not.
/// - Subscribers are served in the order they subscribed. A value sent while another thread
///   subscribes is either replayed to the new subscriber or delivered to it live: never both, never
///   neither.
/// - A subscriber may send into the subject from inside `receive(_:)`: the value joins its backlog
///   and follows the one in hand, so no subscriber is entered twice at once.
/// - An upstream subscription handed over by `send(subscription:)` is asked for `.unlimited` at
///   once; it is let go of at the completion, and cancelled when the subject goes away.
public final class ReplaySubject<Output, Failure: Error>: Subject {
    private struct State {
        var replay = Backlog<Output>()
        var completion: Subscribers.Completion<Failure>?
        var conduits: [ReplayConduit<Output, Failure>] = []
        var upstreams: [any Subscription] = []
    }

    private let bufferSize: Int
    private let lock = Lock()
    private var state = State()

    /// Creates a subject that replays its last `bufferSize` values to each new subscriber.
    ///
    /// `bufferSize` must not be negative.
    public init(bufferSize: Int) {
        precondition(bufferSize >= 0, "ReplaySubject(bufferSize:) requires a non-negative size (got \(bufferSize))")
        self.bufferSize = bufferSize
    }

    deinit {
        for upstream in lock.withLock({ state.upstreams }) { upstream.cancel() }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = lock.withLock {
            let conduit = ReplayConduitOf(
                subject: self, downstream: subscriber, backlog: Backlog(state.replay.elements),
                completion: state.completion)
            if state.completion == nil { state.conduits.append(conduit) }
            return conduit
        }
        subscriber.receive(subscription: conduit)
        conduit.handedOver()
    }

    public func send(_ value: Output) {
        // Into every backlog under the subject's lock, so that concurrent sends reach every
        // subscriber in one order; delivered outside it.
        let receivers = lock.withLock { () -> [ReplayConduit<Output, Failure>] in
            guard state.completion == nil else { return [] }
            state.replay.append(value, keepingAtMost: bufferSize)
            for conduit in state.conduits { conduit.enqueue(value) }
            return state.conduits
        }
        for conduit in receivers { conduit.deliver() }
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        let (receivers, released) = lock.withLock { () -> ([ReplayConduit<Output, Failure>], [any Subscription]) in
            guard state.completion == nil else { return ([], []) }
            state.completion = completion
            for conduit in state.conduits { conduit.enqueue(completion) }
            defer {
                state.conduits = []
                state.upstreams = []
            }
            return (state.conduits, state.upstreams)
        }
        for conduit in receivers { conduit.deliver() }
        withExtendedLifetime(released) {}
    }

    public func send(subscription: any Subscription) {
        let ask = lock.withLock {
            guard state.completion == nil else { return false }
            state.upstreams.append(subscription)
            return true
        }
        if ask { subscription.request(.unlimited) }
    }

    /// Forgets a cancelled subscriber's conduit.
    fileprivate func remove(_ conduit: ReplayConduit<Output, Failure>) {
        lock.withLock { state.conduits.removeAll { $0 === conduit } }
    }
}

/// One subscriber's subscription to a `ReplaySubject`: its backlog, its demand, and whether a
/// thread is delivering to it. The subject holds them by this base class, one type for any
/// subscriber.
private class ReplayConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    var description: String { "ReplaySubject" }
    func enqueue(_ value: Output) {}
    func enqueue(_ completion: Subscribers.Completion<Failure>) {}
    func deliver() {}
    func handedOver() {}
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}

private final class ReplayConduitOf<Downstream: Subscriber>: ReplayConduit<Downstream.Input, Downstream.Failure> {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    /// The conduit's state machine: each step says what to deliver, and the delivering thread
    /// calls the subscriber outside the lock.
    struct State {
        var downstream: Downstream?
        var backlog: Backlog<Output>
        var completion: Subscribers.Completion<Failure>?
        var demand = Subscribers.Demand.none
        /// The subscriber has its subscription: before that, a completion waits.
        var isHandedOver = false
        /// A thread is delivering: others only add to the backlog or the demand.
        var isDelivering = false

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
    }

    private weak var subject: ReplaySubject<Output, Failure>?
    private let lock = Lock()
    private var state: State

    init(
        subject: ReplaySubject<Output, Failure>, downstream: Downstream, backlog: Backlog<Output>,
        completion: Subscribers.Completion<Failure>?
    ) {
        self.subject = subject
        state = State(downstream: downstream, backlog: backlog, completion: completion)
    }

    override func enqueue(_ value: Output) {
        lock.withLock {
            if state.downstream != nil { state.backlog.append(value) }
        }
    }

    override func enqueue(_ completion: Subscribers.Completion<Failure>) {
        lock.withLock { state.completion = completion }
    }

    override func handedOver() {
        lock.withLock { state.isHandedOver = true }
        deliver()
    }

    override func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0,
            "API violation: request(_:) was called with demand .none; a subscription must be asked for at least one value"
        )
        lock.withLock { state.demand += demand }
        deliver()
    }

    /// Delivers what the backlog holds, as demand allows, unless another thread already is.
    override func deliver() {
        guard lock.withLock({ state.startDelivering() }) else { return }
        while true {
            switch lock.withLock({ state.next() }) {
            case .value(let value, let downstream):
                let more = downstream.receive(value)
                if more > 0 { lock.withLock { state.demand += more } }
            case .completion(let completion, let downstream):
                downstream.receive(completion: completion)
            case .idle:
                return
            }
        }
    }

    override func cancel() {
        let released = lock.withLock {
            state.backlog.removeAll()
            return state.downstream.take()
        }
        withExtendedLifetime(released) {}
        subject?.remove(self)
    }
}
