// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher {
    /// Republishes elements until another publisher emits an element; then finishes.
    ///
    /// The other publisher's failure type does not matter: if it completes without emitting,
    /// the stream simply goes on until upstream ends.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// As in Combine, the other publisher is subscribed (and asked for one element) first, then
    /// upstream; downstream receives the subscription when upstream's arrives. When the other
    /// publisher emits, upstream is cancelled and the stream finishes.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements from `upstream` until `other` emits an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = PrefixUntilOutputSubscription<S, Other.Failure>(downstream: subscriber)
            other.subscribe(
                TriggerSubscriber<Other.Output, PrefixUntilOutputSubscription<S, Other.Failure>>(listener: subscription)
            )
            upstream.subscribe(subscription)
        }
    }
}

/// Passes upstream through until the trigger fires. One lock over one state that covers both
/// upstream and the trigger.
///
/// As in Combine, downstream gets this subscription when upstream's arrives, and hears nothing
/// of a stream that ends before: a completion from upstream then goes unheard, and the trigger
/// firing delivers `.finished` alone.
///
/// Lifetimes: downstream lives in the `.running` state; the call that ends the stream takes it
/// out under the lock and drops it after. Unlike most subscriptions it does not introspect:
/// Combine's `prefix(untilOutputFrom:)` subscription does not (PrefixUntilOutputTests).
private final class PrefixUntilOutputSubscription<Downstream: Subscriber, TriggerFailure: Error>:
    Subscriber, Subscription, TriggerListener
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum UpstreamLink {
        /// Downstream has no subscription yet: it gets this one when upstream's arrives.
        case awaitingSubscription
        case subscribed(any Subscription)

        var hasSubscription: Bool {
            if case .subscribed = self { true } else { false }
        }
    }

    private enum TriggerLink {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The trigger completed without emitting: it will never fire.
        case silent
    }

    private enum State {
        case running(Downstream, UpstreamLink, TriggerLink)
        case terminated
    }

    private let lock = Lock()
    private var state: State

    init(downstream: Downstream) { state = .running(downstream, .awaitingSubscription, .awaitingSubscription) }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .running(let downstream, .awaitingSubscription, let trigger) = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .running(downstream, .subscribed(subscription), trigger)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .running(let downstream, .subscribed, _) = state else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .running(let downstream, let upstream, let trigger) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        // Combine cancels the trigger before downstream hears the completion.
        if case .subscribed(let other) = trigger { other.cancel() }
        if upstream.hasSubscription { downstream.receive(completion: completion) }
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

    /// The trigger fired: upstream is cancelled and the stream finishes. As in Combine, the
    /// trigger itself is let go without a cancel: it was asked for one element and sent it.
    func triggerFired() {
        lock.lock()
        // `previous` keeps what the state held until the lock is released.
        let previous = state
        guard case .running(let downstream, let upstream, .subscribed) = previous else {
            lock.unlock()
            return
        }
        state = .terminated
        lock.unlock()
        if case .subscribed(let upstream) = upstream { upstream.cancel() }
        downstream.receive(completion: .finished)
    }

    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        // Without an element the trigger will never fire: the stream goes on until upstream ends.
        // `previous` keeps the trigger's subscription until the lock is released.
        let previous = lock.withLock {
            let previous = state
            if case .running(let downstream, let upstream, _) = previous {
                state = .running(downstream, upstream, .silent)
            }
            return previous
        }
        withExtendedLifetime(previous) {}
    }

    // MARK: Downstream

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard case .running(_, .subscribed(let upstream), _) = state else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    /// Cancels upstream first, then the trigger, in Combine's order.
    func cancel() {
        let current = lock.withLock { exchange(&state, with: .terminated) }
        guard case .running(_, let upstream, let trigger) = current else { return }
        if case .subscribed(let upstream) = upstream { upstream.cancel() }
        if case .subscribed(let other) = trigger { other.cancel() }
    }

}
