// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// collect(.byTime…)'s subscription keeps its state here, as a machine whose events return what to
// do; the subscription itself is in CollectByTime.swift.

/// The windows of `collect(.byTime…)`, kept under the subscription's lock: what upstream, the timer
/// and downstream do to them. Each event changes the state and returns what the subscription does
/// once it has unlocked; nothing here calls out.
///
/// Closed windows go out on the scheduler, from the holder of the delivering `turn` only, so that
/// downstream hears one array at a time even from a concurrent scheduler.
@usableFromInline
struct CollectByTimeState<Element, Failure: Error> {
    @usableFromInline enum Phase {
        case awaitingSubscription
        case active
        /// Upstream has ended: the closed windows go out first, then `ending`.
        case ending
        case done
    }

    /// What the subscription does after upstream completed.
    @usableFromInline enum Completed {
        case none
        /// Cancels the window timer, and schedules a delivery of what is left and the completion.
        case deliver(cancelling: (any Cancellable)?)
    }

    /// What the holder of the turn does outside the lock between arrays: asks upstream for the
    /// elements of the arrays downstream's answer asked for (`.byTimeOrCount`).
    @usableFromInline typealias Callout = (upstream: any Subscription, demand: Subscribers.Demand)

    @usableFromInline typealias Step = DeliveryStep<[Element], Failure, Callout>

    /// `count` for `.byTimeOrCount`; nil for `.byTime`.
    @usableFromInline let limit: Int?
    @usableFromInline var phase = Phase.awaitingSubscription
    @usableFromInline var upstream: (any Subscription)?
    /// The window being filled.
    @usableFromInline var open: [Element] = []
    /// Closed, non-empty windows waiting for demand, oldest first.
    @usableFromInline var closed = RingBuffer<[Element]>()
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var ending: Subscribers.Completion<Failure>?
    @usableFromInline var timer: (any Cancellable)?
    /// Counts timers; a tick from a replaced timer carries an older epoch and is ignored.
    @usableFromInline var epoch: UInt = 0
    @usableFromInline var turn = DeliveryTurn<Failure>()
    /// The holder of the turn counts what downstream answers but does not ask upstream for its
    /// elements: Combine's `.byTimeOrCount` does not, for an array its timer closed.
    @usableFromInline var keepsAnswersDownstream = false

    @inlinable
    init(limit: Int?) {
        self.limit = limit
        open.reserveCapacity(limit ?? 0)
    }

    @inlinable var isTerminated: Bool { phase == .done }

    @inlinable var isRunning: Bool { phase == .active || phase == .ending }

    // MARK: Upstream

    /// True if the subscription is taken (otherwise the caller cancels it).
    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Bool {
        guard phase == .awaitingSubscription else { return false }
        phase = .active
        upstream = subscription
        return true
    }

    /// An element for the open window: whether it filled the window (`.byTimeOrCount`), which the
    /// caller then closes early by starting the next one and scheduling a delivery.
    @inlinable
    mutating func received(_ element: Element) -> (accepted: Bool, filled: Bool) {
        guard phase == .active else { return (false, false) }
        open.append(element)
        guard let limit, open.count >= limit else { return (true, false) }
        closeWindow()
        return (true, true)
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Completed {
        guard phase == .active else { return .none }
        if case .finished = completion {
            closeWindow()
        } else {
            open = []
            closed.removeAll()
        }
        phase = .ending
        ending = completion
        // Upstream is done: nothing more goes to it (demand in `ending` is counted, not passed on).
        upstream = nil
        return .deliver(cancelling: nextEpoch())
    }

    // MARK: Downstream

    /// Downstream asked for `more` arrays: upstream, if it is live (asked for one element with
    /// `.byTime`, for the arrays' elements with `.byTimeOrCount`), and whether closed windows wait
    /// for a delivery.
    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> (upstream: (any Subscription)?, delivers: Bool) {
        guard isRunning else { return (nil, false) }
        demand += more
        return (phase == .active ? upstream : nil, !closed.isEmpty)
    }

    /// Downstream cancelled: upstream (if it was live) and the window timer, to cancel.
    @inlinable
    mutating func cancelled() -> (upstream: (any Subscription)?, timer: (any Cancellable)?) {
        let live = phase == .active ? upstream : nil
        phase = .done
        upstream = nil
        open = []
        closed.removeAll()
        ending = nil
        return (live, nextEpoch())
    }

    // MARK: The window timer

    /// A new window starts: the timer it replaces, to cancel, and the new timer's epoch; nil once
    /// upstream is done.
    @inlinable
    mutating func windowStarts() -> (stale: (any Cancellable)?, epoch: UInt)? {
        guard phase == .active else { return nil }
        let stale = nextEpoch()
        return (stale, epoch)
    }

    /// The new window's timer, scheduled outside the lock: false if it was replaced or the stream
    /// ended meanwhile (the caller cancels it).
    @inlinable
    mutating func windowTimerScheduled(_ token: any Cancellable, epoch: UInt) -> Bool {
        guard epoch == self.epoch, phase == .active else { return false }
        timer = token
        return true
    }

    /// The timer of `epoch` fired: true if it closed a window with something in it to deliver.
    @inlinable
    mutating func windowEnded(epoch: UInt) -> Bool {
        guard epoch == self.epoch, phase == .active else { return false }
        closeWindow()
        return !closed.isEmpty
    }

    // MARK: Delivery (on the scheduler)

    /// A delivery scheduled on the scheduler runs: its first step if the caller took the turn.
    @inlinable
    mutating func deliveryStarts(keepingAnswersDownstream: Bool) -> Step? {
        guard turn.take() else { return nil }
        keepsAnswersDownstream = keepingAnswersDownstream
        return nextDelivery(adding: .none)
    }

    /// The holder's next step, after downstream answered `more`: closed windows while there is
    /// demand, then the completion once upstream has ended and none is left.
    @inlinable
    mutating func nextDelivery(adding more: Subscribers.Demand) -> Step {
        if more != .none && isRunning {
            demand += more
            if !keepsAnswersDownstream, let limit, phase == .active, let upstream {
                return .callout((upstream, more * limit))
            }
        }
        if demand > 0 && !closed.isEmpty {
            demand -= 1
            return .value(closed.removeFirst())
        }
        turn.giveBack()
        guard phase == .ending, closed.isEmpty, let completion = ending else { return isRunning ? .idle : .ended }
        phase = .done
        ending = nil
        return .completion(completion)
    }

    // MARK: Helpers

    /// Closes the open window if it holds anything.
    @inlinable
    mutating func closeWindow() {
        guard !open.isEmpty else { return }
        var fresh: [Element] = []
        fresh.reserveCapacity(limit ?? open.count)
        swap(&fresh, &open)
        closed.append(fresh)
    }

    /// Starts a timer epoch; returns the timer it replaces, for the caller to cancel.
    @inlinable
    mutating func nextEpoch() -> (any Cancellable)? {
        epoch &+= 1
        defer { timer = nil }
        return timer
    }
}
