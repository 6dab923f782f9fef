// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// debounce's subscription keeps its state here, as a machine whose events return what to do; the
// subscription itself is in Debounce.swift.

/// `debounce`'s state, kept under its subscription's lock, where upstream's thread (a new value),
/// the scheduler's (a timer) and downstream's (request, cancel) meet. Each event changes it and
/// returns what the subscription does once it has unlocked; nothing here calls out.
///
/// Each value bumps `generation`; its timer carries the generation it was armed for and delivers
/// only if nothing newer came in, which also makes a timer the scheduler failed to cancel harmless.
@usableFromInline
struct DebounceState<Value, Failure: Error> {
    @usableFromInline enum Phase {
        case awaiting
        case active
        /// Upstream completed; the completion waits on the scheduler.
        case completing
        case done
    }

    /// What the subscription does with upstream's subscription.
    @usableFromInline enum Arrival {
        case start
        case cancel
        /// As Combine's, a subscription that comes after a cancel is left alone.
        case leaveAlone
    }

    /// What the subscription does when a timer fires.
    @usableFromInline enum Fired {
        case none
        /// Cancels the spent timer; delivers the value if downstream wanted it, else drops it.
        case due(Value, wanted: Bool, spent: (any Cancellable)?)
    }

    @usableFromInline var phase = Phase.awaiting
    /// Set by a cancel that came before upstream's subscription.
    @usableFromInline var cancelledEarly = false
    @usableFromInline var upstream: (any Subscription)?
    /// The newest value, until its timer delivers or drops it.
    @usableFromInline var latest: Value?
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var timer: (any Cancellable)?
    /// Requested by downstream and not yet delivered.
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable init() {}

    @inlinable var isTerminated: Bool { phase == .done }

    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Arrival {
        guard phase == .awaiting else { return cancelledEarly ? .leaveAlone : .cancel }
        phase = .active
        upstream = subscription
        return .start
    }

    /// A new value replaces the one waiting: the timer to cancel, and the generation to arm the
    /// next one for; nil if the stream is not live.
    @inlinable
    mutating func received(_ value: Value) -> (replaced: (any Cancellable)?, generation: UInt64)? {
        guard phase == .active else { return nil }
        generation &+= 1
        latest = value
        defer { timer = nil }
        return (timer, generation)
    }

    /// The timer armed for `generation`, scheduled outside the lock: kept only while it is still the
    /// newest value's and has not fired (false: the caller cancels it).
    @inlinable
    mutating func timerScheduled(_ token: any Cancellable, for generation: UInt64) -> Bool {
        guard phase == .active && self.generation == generation && latest != nil else { return false }
        timer = token
        return true
    }

    @inlinable
    mutating func timerFired(for generation: UInt64) -> Fired {
        guard phase == .active, self.generation == generation, let value = latest else { return .none }
        latest = nil
        let spent = timer
        timer = nil
        let wanted = demand != .none
        if wanted { demand -= 1 }
        return .due(value, wanted: wanted, spent: spent)
    }

    /// Downstream answered `more` to a value.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) {
        if phase == .active { demand += more }
    }

    /// Upstream completed: the timer to cancel, if the completion is to be scheduled (nil otherwise).
    @inlinable
    mutating func upstreamCompleted() -> (stopped: (any Cancellable)?, schedules: Bool) {
        guard phase == .active else { return (nil, false) }
        phase = .completing
        upstream = nil
        latest = nil
        defer { timer = nil }
        return (timer, true)
    }

    /// The scheduled completion runs: true if it is still to be delivered.
    @inlinable
    mutating func completionDue() -> Bool {
        guard phase == .completing else { return false }
        phase = .done
        return true
    }

    @inlinable
    mutating func requested(_ more: Subscribers.Demand) {
        if phase == .active { demand += more }
    }

    /// Downstream cancelled: upstream (if it was live) and the timer, to cancel.
    @inlinable
    mutating func cancelled() -> (upstream: (any Subscription)?, timer: (any Cancellable)?) {
        if phase == .awaiting { cancelledEarly = true }
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        latest = nil
        defer { timer = nil }
        return (live, timer)
    }
}
