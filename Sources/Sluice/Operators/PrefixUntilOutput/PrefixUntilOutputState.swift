// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// prefix(untilOutputFrom:)'s subscription keeps its state here, as a machine whose events return
// what to do; the subscription itself is in PrefixUntilOutput.swift.

/// `prefix(untilOutputFrom:)`'s state, kept under its subscription's lock: the link to upstream
/// (which is where the stream is) and the link to the trigger. Each event changes it and returns
/// what the subscription does once it has unlocked; nothing here calls out.
@usableFromInline
struct PrefixUntilOutputState: PublishingState {
    @usableFromInline enum Upstream {
        /// Not subscribed yet: downstream has no subscription either.
        case awaiting
        /// Subscribed: its values pass.
        case active(any Subscription)
        /// The stream has ended.
        case ended
    }

    /// How the stream ends: what to cancel, and whether downstream had its subscription (a stream
    /// that ends before it has ends unheard, unless the trigger fired).
    @usableFromInline typealias Ending = (cancelling: UntilOutputEnd, wasSubscribed: Bool)

    @usableFromInline var upstream = Upstream.awaiting
    @usableFromInline var trigger = TriggerLink.awaiting

    @inlinable init() {}

    /// Whether upstream is active: the value path reads it without the lock.
    @inlinable var published: Bool { if case .active = upstream { true } else { false } }

    /// Upstream's subscription arrived: true to hand downstream this operator's, false to cancel it.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Bool {
        guard case .awaiting = upstream else { return false }
        upstream = .active(subscription)
        return true
    }

    /// The trigger's subscription arrived: true to ask it for one element, false to cancel it.
    @inlinable
    mutating func triggerSubscribed(_ subscription: any Subscription) -> Bool {
        if case .ended = upstream { return false }
        return trigger.subscribed(subscription)
    }

    /// The trigger fired: the stream ends, upstream cancelled; the trigger is let go without a
    /// cancel, as in Combine (it was asked for one element and sent it). Combine ignores an element
    /// from a trigger that has not subscribed yet or has completed: then, and after the end, nil.
    /// The stream's `.finished` is delivered even if upstream never subscribed.
    @inlinable
    mutating func triggerFired() -> UntilOutputEnd? {
        guard trigger.isHeld, let ending = end() else { return nil }
        return UntilOutputEnd(upstream: ending.cancelling.upstream, trigger: nil)
    }

    /// Without an element the trigger will never fire: the stream goes on until upstream ends.
    @inlinable
    mutating func triggerCompleted() { _ = trigger.release() }

    /// Downstream asked for more: upstream, while it is active.
    @inlinable
    func requested() -> (any Subscription)? {
        if case .active(let subscription) = upstream { subscription } else { nil }
    }

    /// The stream ends (upstream completed, or downstream cancelled): both links, for the one caller
    /// that ends it; nil after the end.
    @inlinable
    mutating func end() -> Ending? {
        let current: (any Subscription)?
        switch upstream {
        case .ended: return nil
        case .awaiting: current = nil
        case .active(let subscription): current = subscription
        }
        upstream = .ended
        return (UntilOutputEnd(upstream: current, trigger: trigger.release()), current != nil)
    }
}
