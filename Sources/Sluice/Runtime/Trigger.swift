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

/// The trigger's part of an until-output operator's state (`DropUntilOutputState`,
/// `PrefixUntilOutputState`), kept under its subscription's lock.
@usableFromInline
enum TriggerLink {
    /// Not subscribed yet.
    case awaiting
    /// Subscribed, and asked for its one element.
    case held(any Subscription)
    /// It fired or completed, or the stream ended: Combine lets a trigger that fired or completed go
    /// without a cancel, and cancels a second subscription.
    case released

    /// The trigger's subscription arrived: true to ask it for one element, false to cancel it.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> Bool {
        guard case .awaiting = self else { return false }
        self = .held(subscription)
        return true
    }

    @inlinable var isHeld: Bool { if case .held = self { true } else { false } }

    /// Lets go of the trigger: its subscription, if it was held, for the caller to cancel.
    @inlinable
    mutating func release() -> (any Subscription)? {
        defer { self = .released }
        return if case .held(let subscription) = self { subscription } else { nil }
    }
}

/// What an until-output operator's subscription cancels once its stream has ended, in Combine's
/// order: upstream, then the trigger.
@usableFromInline
struct UntilOutputEnd {
    @usableFromInline let upstream: (any Subscription)?
    @usableFromInline let trigger: (any Subscription)?

    @inlinable
    init(upstream: (any Subscription)?, trigger: (any Subscription)?) {
        self.upstream = upstream
        self.trigger = trigger
    }

    @inlinable
    func cancel() {
        upstream?.cancel()
        trigger?.cancel()
    }
}
