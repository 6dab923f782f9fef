// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// Where a stream is, seen from the subscription between it and its subscriber.
@usableFromInline
enum UpstreamStatus: UInt8, StateWord {
    /// Upstream's subscription has not come.
    case awaiting
    /// Upstream's subscription is held: the stream is live.
    case active
    /// Upstream has ended and is let go of, and the subscription still owes downstream its end:
    /// a value that waits for demand (a fold's result, `replaceEmpty`'s and `replaceError`'s
    /// replacement) or a completion on its scheduler (`receive(on:)`, `delay`, `timeout`).
    case finishing
    /// Ended: nothing more goes downstream.
    case ended
    /// Cancelled before upstream's subscription came. As in Combine, a subscription that comes
    /// after this is left alone (any other late subscription is cancelled).
    case abandoned

    /// Awaiting, active or finishing.
    @inlinable var isLive: Bool { rawValue < Self.ended.rawValue }
}

/// What `attach(_:whileLocked:)` made of upstream's subscription.
@usableFromInline
enum UpstreamAttachment {
    /// It was awaited: the stream is `active`, and the caller hands itself downstream.
    case attached
    /// A second one, or one after the end: `afterCancel` when a cancel came before the first
    /// (Combine leaves such a subscription alone; it cancels the others).
    case late(afterCancel: Bool)
}

/// What `end(abandoning:)` did. An enum whose one payload is a plain existential, so that the
/// compiler handles it inline: an optional struct around an optional existential needed its type
/// metadata made at run time, on whatever thread first ended a stream.
@usableFromInline
enum UpstreamEnding {
    /// The stream had ended already: the caller does nothing.
    case alreadyEnded
    /// The caller ended it while upstream's subscription was not held (awaiting or finishing).
    case endedIdle
    /// The caller ended it while it was active: upstream's subscription (to cancel, when the end
    /// comes from downstream or the middle).
    case endedActive(any Subscription)

    /// Whether this caller ended the stream.
    @inlinable var didEnd: Bool {
        if case .alreadyEnded = self { false } else { true }
    }

    /// Upstream's subscription, if this caller ended an active stream.
    @inlinable var upstream: (any Subscription)? {
        if case .endedActive(let upstream) = self { upstream } else { nil }
    }
}

/// What `finish(parking:parkingAnyway:)` did (an enum for the reason `UpstreamEnding` is one).
@usableFromInline
enum UpstreamFinish {
    /// The stream was not active: the caller does nothing.
    case notActive
    /// Ended: deliver the end now. Upstream's subscription, to cancel if ending early.
    case deliverNow(any Subscription)
    /// Its end waits for downstream's first request. Upstream's subscription, to cancel if ending early.
    case parked(any Subscription)

    /// Whether this caller finished the stream.
    @inlinable var didFinish: Bool {
        if case .notActive = self { false } else { true }
    }

    /// Whether the end goes downstream now.
    @inlinable var deliversNow: Bool {
        if case .deliverNow = self { true } else { false }
    }

    /// Upstream's subscription, if this caller finished the stream.
    @inlinable var upstream: (any Subscription)? {
        switch self {
        case .notActive: nil
        case .deliverNow(let upstream), .parked(let upstream): upstream
        }
    }
}

/// The slot's fields that change under its lock. They live in a `_Cell` (the in-place storage
/// Synchronization's `Mutex` keeps its value in), reached through its address: the slot is a `let`
/// of its subscription, so the value path's lock-free read of the status is never a read of a
/// variable that another thread is changing (a `var` slot would be one variable, modified by the
/// thread that ends the stream while upstream's thread reads it: a race in Swift's access model,
/// which the thread sanitizer reports, even though only the atomic word is shared), and no object
/// of their own is allocated for them.
@usableFromInline
struct UpstreamSlotFields<Waiting> {
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var waiting: Waiting?
    @usableFromInline var hasDemand = false

    @inlinable init() {}
}

/// The upstream side of a subscription that stands between an upstream and its subscriber: the
/// status (read without the lock on each value, changed under it), upstream's subscription while
/// the stream is active, and the value that waits for downstream's first request. Every such
/// subscription of the fast runtime owns one (`let slot`):
/// a run of stages, `handleEvents` and `print`, `dropFirst`, `delay`, `receive(on:)`, `timeout`,
/// `replaceError`, `replaceEmpty`, `collect(_:)`, the folds, and `sink`'s token.
///
/// `awaiting` → `active` → (`finishing` →) `ended`; or `awaiting` → `abandoned` (a cancel first).
/// The lock is held for a few words only, never while calling out: each method says what to do
/// and the caller does it after unlocking. Letting go of `upstream` at the end breaks the cycle
/// with a fused upstream, which holds its subscriber.
@frozen @usableFromInline
struct UpstreamSlot<Waiting>: ~Copyable {
    @usableFromInline let status = Atomic<UpstreamStatus>(.awaiting)
    @usableFromInline let lock = Lock()
    /// What changes under `lock`.
    @usableFromInline let fields = _Cell(UpstreamSlotFields<Waiting>())

    @inlinable init() {}

    /// Guarded by `lock`; held while `active`.
    @inlinable var upstream: (any Subscription)? {
        get { fields._address.pointee.upstream }
        nonmutating set { fields._address.pointee.upstream = newValue }
    }

    /// Guarded by `lock`; while `finishing`, what waits for downstream's first request.
    @inlinable var waiting: Waiting? {
        get { fields._address.pointee.waiting }
        nonmutating set { fields._address.pointee.waiting = newValue }
    }

    /// Guarded by `lock`: downstream has asked for something.
    @inlinable var hasDemand: Bool {
        get { fields._address.pointee.hasDemand }
        nonmutating set { fields._address.pointee.hasDemand = newValue }
    }

    /// The status under no lock (one atomic load), for the value path.
    @inlinable var current: UpstreamStatus { status.load(ordering: .acquiring) }

    /// Takes upstream's subscription if it is awaited. `whileLocked` runs under the same lock as
    /// the stream becomes `active`: the owner takes there what waited for the subscription (the
    /// demand `dropFirst` holds back).
    @inlinable
    func attach(_ subscription: any Subscription, whileLocked: () -> Void = {}) -> UpstreamAttachment {
        lock.lock()
        let now = status.load(ordering: .relaxed)
        guard now == .awaiting else {
            lock.unlock()
            return .late(afterCancel: now == .abandoned)
        }
        upstream = subscription
        whileLocked()
        status.store(.active, ordering: .releasing)
        lock.unlock()
        return .attached
    }

    /// `attach(_:whileLocked:)` with Combine's answer to a late subscription: it is cancelled,
    /// unless a cancel came before the first one (then it is left alone). True when it was attached.
    @inlinable
    func attachOrCancelLate(_ subscription: any Subscription, whileLocked: () -> Void = {}) -> Bool {
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
    func activeUpstream() -> (status: UpstreamStatus, upstream: (any Subscription)?) {
        lock.lock()
        defer { lock.unlock() }
        let now = status.load(ordering: .relaxed)
        return (now, now == .active ? upstream : nil)
    }

    /// Ends the stream, once: a live stream becomes `ended`, and an awaiting one `abandoned` (for a
    /// cancel) or `ended`. Upstream's subscription and the waiting value are let go of.
    ///
    /// A compare-and-exchange, not a store: an owner may move from `active` to `finishing` without
    /// the lock (`delay`), and whichever state it left says whether upstream is still there to cancel.
    @inlinable
    func end(abandoning: Bool = false) -> UpstreamEnding {
        lock.lock()
        defer { lock.unlock() }
        var now = status.load(ordering: .relaxed)
        while true {
            guard now.isLive else { return .alreadyEnded }
            let next: UpstreamStatus = abandoning && now == .awaiting ? .abandoned : .ended
            let (exchanged, found) = status.compareExchange(
                expected: now, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { break }
            now = found
        }
        defer {
            upstream = nil
            waiting = nil
        }
        if now == .active, let upstream { return .endedActive(upstream) }
        return .endedIdle
    }

    /// Ends the stream from upstream's side while it is `active`, for an owner whose end may wait
    /// for demand: with `value` (or with `parkingAnyway`: a finish without a value) and no request
    /// yet, the stream is `finishing` and the value waits.
    @inlinable
    func finish(parking value: Waiting?, parkingAnyway: Bool = false) -> UpstreamFinish {
        lock.lock()
        defer { lock.unlock() }
        guard status.load(ordering: .relaxed) == .active, let live = upstream else { return .notActive }
        upstream = nil
        if (value != nil || parkingAnyway) && !hasDemand {
            waiting = value
            status.store(.finishing, ordering: .releasing)
            return .parked(live)
        }
        status.store(.ended, ordering: .releasing)
        return .deliverNow(live)
    }

    /// Notes downstream's request; hands back the waiting end if there is one (deliver its value,
    /// if any, then `.finished`), and upstream's subscription if the stream is active.
    @inlinable
    func request() -> (waiting: Waiting??, upstream: (any Subscription)?) {
        lock.lock()
        defer { lock.unlock() }
        hasDemand = true
        switch status.load(ordering: .relaxed) {
        case .active:
            return (nil, upstream)
        case .finishing:
            status.store(.ended, ordering: .releasing)
            defer { waiting = nil }
            return (.some(waiting), nil)
        default:
            return (nil, nil)
        }
    }
}
