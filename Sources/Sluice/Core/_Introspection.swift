// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if Introspection
import Synchronization

/// Combine's debugging hooks, built when the package trait `Introspection` is enabled (without
/// it, neither this protocol nor any check for it is compiled: see "Where Sluice departs from
/// Combine"). An object that conforms and is enabled hears of every subscription
/// made with ``Publisher/subscribe(_:)`` while it is enabled, and then of every signal that crosses
/// that subscription, just before and just after it: the subscription, each input with the demand
/// it returned, the completion, each request and each cancel.
///
/// As in Combine:
/// - Only `subscribe(_:)` is watched; a direct `receive(subscriber:)` is not.
/// - A subscription made while some hook is enabled puts a forwarding subscriber in front of the
///   subscriber, and a forwarding subscription in front of each subscription handed to it. Both
///   show their target's description and combine identifier, and stay in place once the hooks are
///   disabled (they then report nothing).
/// - Each event goes to the hooks enabled when it happens, in the order they were enabled.
/// - A subscriber that is already a forwarding one is not wrapped again: the hooks see it as an
///   `AnySubscriber`.
///
/// While a hook is enabled, every chain subscribes operator by operator, as Combine's does, instead
/// of running fused, so that the hooks see each boundary Combine's chain has (`map.filter` reports
/// its map and its filter).
///
/// All the methods do nothing by default; implement those you need.
public protocol _Introspection: AnyObject {
    /// A publisher is about to receive a subscriber.
    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// A publisher has received a subscriber.
    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// A subscriber is about to receive a subscription.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// A subscriber has received a subscription.
    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// A subscriber is about to receive an input.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

    /// A subscriber has received an input and returned `resultingDemand`.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

    /// A subscriber is about to receive a completion.
    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// A subscriber has received a completion.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// A subscription is about to be asked for `demand`.
    func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// A subscription has been asked for `demand`.
    func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// A subscription is about to be cancelled.
    func willCancel(subscription: any Subscription)

    /// A subscription has been cancelled.
    func didCancel(subscription: any Subscription)
}

extension _Introspection {
    public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {}

    public func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    public func willCancel(subscription: any Subscription) {}

    public func didCancel(subscription: any Subscription) {}

    /// Starts reporting to this object (nothing happens if it already is enabled).
    public func enable() { IntrospectionHooks.enable(self) }

    /// Stops reporting to this object.
    public func disable() { IntrospectionHooks.disable(self) }

    /// Whether this object is enabled.
    public var isEnabled: Bool { IntrospectionHooks.isEnabled(self) }
}

/// The enabled hooks, in the order they were enabled. An event reads them when it happens and
/// reports outside the lock, so a hook may enable or disable hooks, or subscribe, from inside.
/// `isActive` is read on every `subscribe(_:)` and fusion decision.
@usableFromInline
enum IntrospectionHooks {
    private static let lock = Lock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var enabled: [any _Introspection] = []
    /// How many are enabled: read without the lock.
    private static let count = Atomic<Int>(0)

    @usableFromInline static var isActive: Bool { count.load(ordering: .acquiring) != 0 }

    static var current: [any _Introspection] { lock.withLock { enabled } }

    static func enable(_ hook: any _Introspection) {
        lock.withLock {
            if !enabled.contains(where: { $0 === hook }) { enabled.append(hook) }
            count.store(enabled.count, ordering: .releasing)
        }
    }

    static func disable(_ hook: any _Introspection) {
        lock.withLock {
            enabled.removeAll { $0 === hook }
            count.store(enabled.count, ordering: .releasing)
        }
    }

    static func isEnabled(_ hook: any _Introspection) -> Bool {
        lock.withLock { enabled.contains { $0 === hook } }
    }

    /// Reports an event to every hook enabled now.
    static func report(_ event: (any _Introspection) -> Void) {
        for hook in current { event(hook) }
    }

    /// `subscribe(_:)` while hooks are enabled: reports the subscription, before and after, and
    /// puts a forwarding subscriber in front of `subscriber` (unless it is one already).
    @usableFromInline
    static func subscribe<Upstream: Publisher, Downstream: Subscriber>(_ publisher: Upstream, _ subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        let forwarding =
            subscriber is any IntrospectingSubscriber
            || (subscriber as? AnySubscriber<Downstream.Input, Downstream.Failure>)?.wrapped
                is any IntrospectingSubscriber
        guard !forwarding else {
            let shown = AnySubscriber(subscriber)
            report { $0.willReceive(publisher: publisher, subscriber: shown) }
            publisher.receive(subscriber: subscriber)
            report { $0.didReceive(publisher: publisher, subscriber: shown) }
            return
        }
        report { $0.willReceive(publisher: publisher, subscriber: subscriber) }
        publisher.receive(subscriber: ForwardingSubscriber(subscriber))
        report { $0.didReceive(publisher: publisher, subscriber: subscriber) }
    }
}

/// What a subscriber that `subscribe(_:)` put in front of another is known by.
protocol IntrospectingSubscriber {}

extension IntrospectionHooks {
    /// The subscriber put in front of `downstream`: it reports each signal to the enabled hooks
    /// and passes it on unchanged, the subscription behind a `ForwardingSubscription`.
    final class ForwardingSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        IntrospectingSubscriber
    {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let downstream: Downstream

        init(_ downstream: Downstream) { self.downstream = downstream }

        var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

        var description: String { String(describing: downstream) }

        func receive(subscription: any Subscription) {
            report { $0.willReceive(subscriber: downstream, subscription: subscription) }
            downstream.receive(subscription: ForwardingSubscription(subscription))
            report { $0.didReceive(subscriber: downstream, subscription: subscription) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            report { $0.willReceive(subscriber: downstream, input: input) }
            let demand = downstream.receive(input)
            report { $0.didReceive(subscriber: downstream, input: input, resultingDemand: demand) }
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            report { $0.willReceive(subscriber: downstream, completion: completion) }
            downstream.receive(completion: completion)
            report { $0.didReceive(subscriber: downstream, completion: completion) }
        }
    }

    /// The subscription a `ForwardingSubscriber` hands on: it reports each request and cancel.
    final class ForwardingSubscription: Subscription, CustomStringConvertible {
        let upstream: any Subscription

        init(_ upstream: any Subscription) { self.upstream = upstream }

        var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

        var description: String { String(describing: upstream) }

        func request(_ demand: Subscribers.Demand) {
            report { $0.willRequest(subscription: upstream, demand) }
            upstream.request(demand)
            report { $0.didRequest(subscription: upstream, demand) }
        }

        func cancel() {
            report { $0.willCancel(subscription: upstream) }
            upstream.cancel()
            report { $0.didCancel(subscription: upstream) }
        }
    }
}
#endif

extension _Runtime {
    /// Whether a chain may run fused (or as one run of stages) now: always, unless the package
    /// trait `Introspection` is enabled and a hook is, when every operator subscribes its upstream
    /// as Combine's does. Without the trait this is the constant `true`.
    @inlinable @inline(__always)
    static var mayFuse: Bool {
        #if Introspection
        !IntrospectionHooks.isActive
        #else
        true
        #endif
    }
}
