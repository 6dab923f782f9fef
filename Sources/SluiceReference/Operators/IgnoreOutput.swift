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
// nothing reaches either side after a completion or a cancel. Downstream lives in the state until
// then; the call that ends the stream takes it out under the lock and drops it after.
private final class IgnoreOutputSubscription<Input, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible where Downstream.Input == Never
{
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, upstream: any Subscription)
        case terminated
    }

    private let lock = Lock()
    private var state: State

    init(downstream: Downstream) { state = .awaitingSubscription(downstream) }

    var description: String { "IgnoreOutput" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription(let downstream) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .subscribed(downstream, upstream: subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .subscribed(let downstream, _) = previous else {
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
        guard case .subscribed(_, let upstream) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        let previous = lock.withLock { exchange(&state, with: .terminated) }
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
    }
}
