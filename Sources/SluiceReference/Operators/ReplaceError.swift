extension Publisher {
    /// Replaces any error from the upstream publisher with the provided element, then finishes.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    ///
    /// On an upstream failure it sends `output` and `.finished`, at once if downstream has demand
    /// left, otherwise at downstream's next request. Values and `.finished` pass through.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReplaceErrorSubscription<Upstream, S>(output: output, downstream: subscriber))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

/// Sits between upstream and downstream like a one-to-one operator, but counts downstream's
/// outstanding demand: the replacement value may only be sent while some is left, and is held
/// until there is when the failure arrives too early.
private final class ReplaceErrorSubscription<Upstream: Publisher, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never
{
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Upstream failed while downstream had no demand: the replacement waits for a request.
        case awaitingDemand
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// What downstream has asked for and not yet received.
    private var demand = Subscribers.Demand.none
    private let output: Upstream.Output
    private let downstream: Downstream

    init(output: Upstream.Output, downstream: Downstream) {
        self.output = output
        self.downstream = downstream
    }

    var description: String { "ReplaceError" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return .none
        }
        // Combine traps here too: counting demand is this operator's job, so an upstream that
        // overruns it is caught rather than silently passed on.
        precondition(demand > 0, "API violation: ReplaceError received a value from upstream while downstream had no outstanding demand")
        demand -= 1
        lock.unlock()
        let more = downstream.receive(input)
        lock.lock()
        demand += more
        lock.unlock()
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        if case .failure = completion, demand == .none {
            state = .awaitingDemand
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        if case .failure = completion {
            _ = downstream.receive(output)
        }
        downstream.receive(completion: .finished)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        self.demand += demand
        switch state {
        case .subscribed(let upstream):
            lock.unlock()
            upstream.request(demand)
        case .awaitingDemand:
            state = .terminated
            lock.unlock()
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        case .awaitingSubscription, .terminated:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let current = state
        state = .terminated
        lock.unlock()
        if case .subscribed(let upstream) = current {
            upstream.cancel()
        }
    }
}
