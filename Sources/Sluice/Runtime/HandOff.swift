// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// What an operator's upstream side shares with downstream's `request` and `cancel`, which may
/// come from any thread: the upstream subscription, where the stream is, and a value that waits
/// for downstream's first request (the result of a fold, the element of `replaceEmpty`).
///
/// Kept in a `Mutex` by its owner, touched once per request, cancel and ending, never per value,
/// and never held while calling out: each method says what to do and the caller does it after
/// unlocking. Letting go of `upstream` at the end breaks the cycle with a fused upstream, which
/// holds its subscriber.
@usableFromInline
struct UpstreamHandOff<Value> {
    @usableFromInline enum Phase: UInt8 {
        case awaitingSubscription
        case active
        /// Upstream has ended; `parked` waits for downstream's first request.
        case parked
        case done
    }

    @usableFromInline var phase = Phase.awaitingSubscription
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var hasDemand = false
    @usableFromInline var wasAttached = false
    /// While `parked`: the value that waits, if any (a fold's finish waits for demand with or without one).
    @usableFromInline var parked: Value?

    @inlinable init() {}

    /// What became of a subscription handed to `attach`.
    @usableFromInline enum Attachment {
        /// It is the stream's upstream now.
        case attached
        /// It came after downstream had cancelled, before any other subscription: what is done
        /// with it differs by operator in Combine (a reducer still asks it for `.unlimited`).
        case afterCancel
        /// A subscription came before it: the caller cancels it.
        case again
    }

    /// Takes the first subscription.
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> Attachment {
        guard phase == .awaitingSubscription else { return wasAttached ? .again : .afterCancel }
        phase = .active
        upstream = subscription
        wasAttached = true
        return .attached
    }

    /// The upstream subscription while the stream is live, to pass a request on to.
    @inlinable var live: (any Subscription)? { phase == .active ? upstream : nil }

    /// Ends the stream from upstream's side, for the one caller that gets here while it is live.
    /// With `value` (or with `parkingAnyway`: a finish without a value), and no request yet, the
    /// ending is parked. Returns nil if the stream had already ended; otherwise the upstream
    /// subscription (to cancel, if ending early) and whether to deliver now.
    @inlinable
    mutating func end(parking value: Value?, parkingAnyway: Bool = false) -> (
        upstream: (any Subscription)?, deliverNow: Bool
    )? {
        guard phase == .active else { return nil }
        let upstream = self.upstream
        self.upstream = nil
        if (value != nil || parkingAnyway) && !hasDemand {
            parked = value
            phase = .parked
            return (upstream, false)
        }
        phase = .done
        return (upstream, true)
    }

    /// Ends the stream before upstream's subscription came (an operator that, as in Combine,
    /// passes such a completion on). Returns whether it was awaiting it.
    @inlinable
    mutating func endBeforeSubscription() -> Bool {
        guard phase == .awaitingSubscription else { return false }
        phase = .done
        return true
    }

    /// Notes downstream's request; hands back the parked ending if there is one (deliver its
    /// value, if any, then `.finished`).
    @inlinable
    mutating func request() -> Value?? {
        hasDemand = true
        guard phase == .parked else { return nil }
        phase = .done
        defer { parked = nil }
        return .some(parked)
    }

    /// Ends the stream from downstream's side; returns the upstream subscription to cancel, if live.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        let live = self.live
        phase = .done
        upstream = nil
        parked = nil
        return live
    }
}

extension Mutex where Value == Void {
    /// Runs `body` on `state` under this lock, `state` being stored next to the lock in a class.
    ///
    /// The state stays outside the `Mutex` because what it holds (a subscription, a value waiting
    /// for demand) is not `Sendable`: `Mutex.withLock` would require it to be sent in and out.
    @inlinable
    borrowing func withLock<State, Result>(guarding state: inout State, _ body: (inout State) -> Result) -> Result {
        var result: Result?
        withLock { _ in result = body(&state) }
        return result!
    }
}
