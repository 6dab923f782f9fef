// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// What the subscription of `drop(untilOutputFrom:)` or `prefix(untilOutputFrom:)` hears from
/// the other publisher, the trigger.
protocol TriggerListener<TriggerFailure>: AnyObject {
    associatedtype TriggerFailure: Error
    func triggerSubscribed(_ subscription: any Subscription)
    /// The trigger emitted an element.
    func triggerFired()
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>)
}

/// Subscribes to the other publisher on behalf of a `TriggerListener`, which stays the one place
/// that holds state. It shares the listener's identifier, as Combine's inner subscribers do.
struct TriggerSubscriber<Input, Listener: TriggerListener>: Subscriber {
    typealias Failure = Listener.TriggerFailure

    let listener: Listener

    var combineIdentifier: CombineIdentifier { CombineIdentifier(listener) }

    func receive(subscription: any Subscription) { listener.triggerSubscribed(subscription) }

    func receive(_ input: Input) -> Subscribers.Demand {
        listener.triggerFired()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { listener.triggerCompleted(completion) }
}

/// `drop(untilOutputFrom:)`'s trigger subscriber introspects as its subscription, as Combine's
/// does; `prefix(untilOutputFrom:)`'s does not, in Combine as here.
extension TriggerSubscriber: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    Introspected
where Listener: Introspected {
    var description: String { listener.description }

    var customMirror: Mirror { listener.customMirror }
}
