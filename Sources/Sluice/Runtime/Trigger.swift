// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// What the subscription of `drop(untilOutputFrom:)` or `prefix(untilOutputFrom:)` hears from
/// the other publisher, the trigger. The subscription keeps all the state; the subscriber below
/// only relays.
@usableFromInline
protocol TriggerListener<TriggerFailure>: AnyObject {
    associatedtype TriggerFailure: Error
    func triggerSubscribed(_ subscription: any Subscription)
    /// The trigger emitted an element (only its first one matters).
    func triggerFired()
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>)
}

/// Subscribes to the trigger on behalf of a listener. It carries the listener's identifier, as
/// Combine's inner subscribers carry their subscription's.
@frozen @usableFromInline
struct TriggerSubscriber<Input, Listener: TriggerListener>: Subscriber {
    @usableFromInline typealias Failure = Listener.TriggerFailure

    @usableFromInline let listener: Listener

    @inlinable init(listener: Listener) { self.listener = listener }

    @inlinable var combineIdentifier: CombineIdentifier { CombineIdentifier(listener) }

    @inlinable func receive(subscription: any Subscription) { listener.triggerSubscribed(subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        listener.triggerFired()
        return .none
    }

    @inlinable func receive(completion: Subscribers.Completion<Failure>) { listener.triggerCompleted(completion) }
}

/// `drop(untilOutputFrom:)`'s trigger subscriber introspects as its subscription, as Combine's
/// does; `prefix(untilOutputFrom:)`'s is not introspectable in Combine, and neither is Sluice's.
extension TriggerSubscriber: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Introspected, SideSubscriber
where Listener: Introspected {
    @inlinable var owner: Listener { listener }
}
