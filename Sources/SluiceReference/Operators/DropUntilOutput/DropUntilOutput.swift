// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second publisher.
    ///
    /// A completion of the second publisher before its first element ends the stream (a failure
    /// fails it); after its first element, the second publisher no longer matters.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element
    /// from a second publisher.
    ///
    /// As in Combine: downstream receives the subscription first, then the other publisher is
    /// subscribed and asked for one element, then upstream. Downstream's demand goes straight
    /// upstream, and an element dropped before the trigger is not replaced by a new request.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from `upstream` until `other` emits an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = DropUntilOutputSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            other.subscribe(TriggerSubscriber<Other.Output, DropUntilOutputSubscription<S>>(listener: subscription))
            upstream.subscribe(subscription)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

/// Drops upstream values until the trigger fires. One lock over one state that covers both
/// upstream and the trigger.
///
/// Lifetimes: downstream lives in the `.running` state; the call that ends the stream takes it
/// out under the lock and drops it after.
private final class DropUntilOutputSubscription<Downstream: Subscriber>:
    Subscriber, Subscription, TriggerListener, Introspected
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    typealias TriggerFailure = Downstream.Failure

    private enum UpstreamLink {
        /// Demand from downstream waits here until upstream's subscription arrives.
        case awaitingSubscription(pending: Subscribers.Demand)
        case subscribed(any Subscription)
    }

    private enum TriggerLink {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The trigger has emitted: values pass. Combine lets go of the trigger here without
        /// cancelling it (it was asked for one element and sent it), and ignores its completion.
        case fired
    }

    private enum State {
        case running(Downstream, UpstreamLink, TriggerLink)
        case terminated
    }

    private let lock = Lock()
    private var state: State
    /// What downstream requested and upstream has not sent yet: a value that finds none traps,
    /// as in Combine (whose operator counts it too), dropped or not, and after the end too.
    private var outstanding = Subscribers.Demand.none

    init(downstream: Downstream) {
        state = .running(downstream, .awaitingSubscription(pending: .none), .awaitingSubscription)
    }

    var description: String { "DropUntilOutput" }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .running(let downstream, .awaitingSubscription(let pending), let trigger) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .running(downstream, .subscribed(subscription), trigger)
        lock.unlock()
        if pending > 0 { subscription.request(pending) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard outstanding > 0 else {
            lock.unlock()
            trap(
                "API violation: DropUntilOutput received a value from upstream while downstream had no outstanding demand"
            )
        }
        outstanding -= 1
        guard case .running(let downstream, .subscribed, .fired) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let more = downstream.receive(input)
        lock.withLock { outstanding += more }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .running(let downstream, _, let trigger) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        if case .subscribed(let other) = trigger { other.cancel() }
        downstream.receive(completion: completion)
    }

    // MARK: Trigger

    func triggerSubscribed(_ subscription: any Subscription) {
        lock.lock()
        guard case .running(let downstream, let upstream, .awaitingSubscription) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .running(downstream, upstream, .subscribed(subscription))
        lock.unlock()
        subscription.request(.max(1))
    }

    func triggerFired() {
        // `previous` keeps the trigger's subscription until the lock is released.
        let previous = lock.withLock {
            let previous = state
            if case .running(let downstream, let upstream, .subscribed) = previous {
                state = .running(downstream, upstream, .fired)
            }
            return previous
        }
        withExtendedLifetime(previous) {}
    }

    func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .running(let downstream, let upstream, let trigger) = previous else {
            lock.unlock()
            return
        }
        if case .fired = trigger {
            lock.unlock()
            return
        }
        // The trigger can no longer fire: nothing would ever pass, so the stream ends here.
        state = .terminated
        lock.unlock()
        if case .subscribed(let upstream) = upstream { upstream.cancel() }
        downstream.receive(completion: completion)
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        if case .running = state { outstanding += demand }
        switch state {
        case .running(let downstream, .awaitingSubscription(let pending), let trigger):
            state = .running(downstream, .awaitingSubscription(pending: pending + demand), trigger)
            lock.unlock()
        case .running(_, .subscribed(let upstream), _):
            lock.unlock()
            upstream.request(demand)
        case .terminated:
            lock.unlock()
        }
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    func cancel() {
        let current = lock.withLock { exchange(&state, with: .terminated) }
        guard case .running(_, let upstream, let trigger) = current else { return }
        if case .subscribed(let upstream) = upstream { upstream.cancel() }
        if case .subscribed(let other) = trigger { other.cancel() }
    }
}
