// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// throttle's subscription keeps its state here, as a machine whose events return what to do; the
// subscription itself is in Throttle.swift.

/// `throttle`'s state, kept under its subscription's lock. Each event changes it and returns what
/// the subscription does once it has unlocked; nothing here calls out but the scheduler's clock
/// (`now`), a read that never calls back. Combine reads the clock when the subscriber is made,
/// and while the stream is live, when the subscription, each value and the completion come and at
/// each delivery (OpenCombine's ThrottleTests record every call on the scheduler): so does this.
///
/// At most one delivery is scheduled at a time (`scheduled`, with `slot` holding what it will
/// deliver); values arriving meanwhile only update the slot, so a burst costs no scheduling at all.
@usableFromInline
struct ThrottleState<Value, Failure: Error, Context: Scheduler> {
    @usableFromInline typealias Instant = Context.SchedulerTimeType

    @usableFromInline enum Phase {
        case awaiting
        case active
        /// Upstream completed; `ending` waits for the scheduled delivery.
        case completing
        case done
    }

    /// What the subscription does with a value from upstream.
    @usableFromInline enum Input {
        case none
        /// Schedules a delivery as soon as possible.
        case scheduleNow
        /// Schedules a delivery at the instant the interval since the last one ends.
        case schedule(at: Instant)
    }

    /// What a scheduled delivery does: delivers `value`, if any, then `completion`, if any.
    @usableFromInline typealias Delivery = (value: Value?, completion: Subscribers.Completion<Failure>?)

    @usableFromInline let interval: Instant.Stride
    @usableFromInline let keepsLatest: Bool
    @usableFromInline let scheduler: Context
    @usableFromInline var phase = Phase.awaiting
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var demand = Subscribers.Demand.none
    /// True from scheduling a delivery until it runs.
    @usableFromInline var scheduled = false
    /// The value the scheduled delivery will deliver.
    @usableFromInline var slot: Value?
    /// Upstream's completion, for the delivery that carries it.
    @usableFromInline var ending: Subscribers.Completion<Failure>?
    /// The instant of the last delivered value; nil before the first.
    @usableFromInline var lastDelivered: Instant?

    @inlinable
    init(interval: Instant.Stride, keepsLatest: Bool, scheduler: Context) {
        self.interval = interval
        self.keepsLatest = keepsLatest
        self.scheduler = scheduler
    }

    @inlinable var isTerminated: Bool { phase == .done }

    /// True if the subscription is taken (otherwise the caller cancels it).
    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Bool {
        guard phase == .awaiting else { return false }
        _ = scheduler.now
        phase = .active
        upstream = subscription
        return true
    }

    @inlinable
    mutating func received(_ value: Value) -> Input {
        guard phase == .active else { return .none }
        let now = scheduler.now
        if scheduled {
            if keepsLatest { slot = value }
            return .none
        }
        // No delivery waiting and no demand: the value is dropped, as in Combine.
        guard demand != .none else { return .none }
        slot = value
        scheduled = true
        guard let opens = lastDelivered?.advanced(by: interval), opens > now else { return .scheduleNow }
        return .schedule(at: opens)
    }

    /// Upstream completed: true if the completion needs a delivery of its own (a delivery already
    /// waiting carries it after its value).
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard phase == .active else { return false }
        _ = scheduler.now
        phase = .completing
        upstream = nil
        ending = completion
        defer { scheduled = true }
        return !scheduled
    }

    /// A scheduled delivery runs: the value to deliver if downstream has demand for it, and the
    /// completion it carries. Only a completion that was here before this delivery ran rides on
    /// it; one that arrives from inside downstream's `receive` scheduled its own. The clock is read
    /// only while upstream is live: a delivery that carries the completion is the last one (and
    /// Combine does not read it then).
    @inlinable
    mutating func deliveryRuns() -> Delivery {
        guard phase == .active || phase == .completing else { return (nil, nil) }
        let now = phase == .active ? scheduler.now : nil
        let carried = phase == .completing ? ending : nil
        scheduled = false
        let value = slot
        slot = nil
        guard value != nil && demand != .none else { return (nil, carried) }
        demand -= 1
        if let now { lastDelivered = now }
        return (value, carried)
    }

    /// Downstream answered `more` to a value.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) {
        if phase == .active { demand += more }
    }

    /// The completion a delivery carried is due: false if downstream cancelled from inside its
    /// `receive`.
    @inlinable
    mutating func completionDue() -> Bool {
        guard phase == .completing else { return false }
        phase = .done
        ending = nil
        return true
    }

    @inlinable
    mutating func requested(_ more: Subscribers.Demand) {
        if phase == .active || phase == .completing { demand += more }
    }

    /// Downstream cancelled: upstream, if it was live, to cancel.
    @inlinable
    mutating func cancelled() -> (any Subscription)? {
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        slot = nil
        ending = nil
        return live
    }
}
