// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// The upstream half of every subscription that stands between an upstream and its subscriber and
/// passes upstream's subscription on as its own (a run of stages, `handleEvents` and `print`,
/// `dropFirst`, `delay`, `replaceError`): upstream's subscription and the status word that says
/// where the stream is. The status changes under `lock`, and is read without it on each value.
///
/// `awaiting` → `active` (upstream's subscription came) → `done`; or `awaiting` → `abandoned`, a
/// cancel before upstream's subscription, after which, as in Combine, a late subscription is left
/// alone rather than cancelled. A subclass numbers the states of its own from `firstOwnState` up;
/// they count as live, like `active`.
@usableFromInline
class UpstreamLink {
    @inlinable static var awaiting: UInt8 { 0 }
    @inlinable static var active: UInt8 { 1 }
    @inlinable static var done: UInt8 { 2 }
    @inlinable static var abandoned: UInt8 { 3 }
    @inlinable static var firstOwnState: UInt8 { 4 }

    @usableFromInline final let status = Atomic<UInt8>(0)
    @usableFromInline final let lock = Lock()
    /// Guarded by `lock`; held while `active`, let go of at the end.
    @exclusivity(unchecked)
    @usableFromInline final var upstream: (any Subscription)?

    @inlinable init() {}

    /// What `attach(_:)` made of upstream's subscription.
    @usableFromInline
    enum Attachment {
        /// It was awaited: the stream is `active`, and the caller hands itself downstream.
        case attached
        /// A second one, or one after the end: `afterCancel` when a cancel came before the first
        /// (Combine leaves such a subscription alone; it cancels the others).
        case late(afterCancel: Bool)
    }

    /// Takes upstream's subscription if it is awaited. `whileLocked` runs under the same lock as
    /// the stream becomes `active`: a subclass takes there what waited for the subscription (the
    /// demand `dropFirst` holds back).
    @inlinable
    final func attach(_ subscription: any Subscription, whileLocked: () -> Void = {}) -> Attachment {
        lock.lock()
        let current = status.load(ordering: .relaxed)
        guard current == Self.awaiting else {
            lock.unlock()
            return .late(afterCancel: current == Self.abandoned)
        }
        upstream = subscription
        whileLocked()
        status.store(Self.active, ordering: .releasing)
        lock.unlock()
        return .attached
    }

    /// `attach(_:whileLocked:)` with Combine's answer to a late subscription: it is cancelled,
    /// unless a cancel came before the first one (then it is left alone). True when it was attached.
    @inlinable
    final func attachOrCancelLate(_ subscription: any Subscription, whileLocked: () -> Void = {}) -> Bool {
        switch attach(subscription, whileLocked: whileLocked) {
        case .attached:
            return true
        case .late(let afterCancel):
            if !afterCancel { subscription.cancel() }
            return false
        }
    }

    /// Upstream's subscription while the stream is `active` (where a request goes), and the status
    /// it found.
    @inlinable
    final func activeUpstream() -> (status: UInt8, upstream: (any Subscription)?) {
        lock.lock()
        defer { lock.unlock() }
        let current = status.load(ordering: .relaxed)
        return (current, current == Self.active ? upstream : nil)
    }

    /// How the stream ended, for the one caller that ended it: upstream's subscription if the
    /// stream was `active` (the caller cancels it when the end comes from downstream or the middle).
    @usableFromInline
    struct Ending {
        @usableFromInline let upstream: (any Subscription)?
    }

    /// Ends the stream, once: a live stream becomes `done`, and an awaiting one `abandoned` (for a
    /// cancel) or `done`. Nil when it had ended already. Upstream's subscription is let go of.
    ///
    /// A compare-and-exchange, not a store: a subclass may move between its live states without
    /// the lock (`delay`'s `active` → `completing`), and whichever state it left is the one that
    /// says whether upstream is still there to cancel.
    @usableFromInline
    final func end(abandoning: Bool = false) -> Ending? {
        lock.lock()
        defer { lock.unlock() }
        var current = status.load(ordering: .relaxed)
        while true {
            guard current != Self.done && current != Self.abandoned else { return nil }
            let next = abandoning && current == Self.awaiting ? Self.abandoned : Self.done
            let (exchanged, found) = status.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = found
        }
        defer { upstream = nil }
        return Ending(upstream: current == Self.active ? upstream : nil)
    }
}
