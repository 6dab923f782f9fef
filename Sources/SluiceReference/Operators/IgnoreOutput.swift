extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    ///
    /// As in Combine, it asks upstream for `.unlimited` once downstream has the subscription, and
    /// still passes every request and the cancel from downstream on to upstream. Downstream's
    /// demand never matters (no value is ever sent), so the completion arrives without it.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        public typealias Output = Never
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(IgnoreOutputSubscription(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

// Combine hands the upstream's own subscription to downstream. This class forwards requests and
// the cancel the same way while the stream is live, and goes quiet once it has ended, so that
// nothing reaches either side after a completion or a cancel.
private final class IgnoreOutputSubscription<Input, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible where Downstream.Input == Never
{
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    private let downstream: Downstream

    init(downstream: Downstream) { self.downstream = downstream }

    var description: String { "IgnoreOutput" }

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
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard case .subscribed(let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
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
