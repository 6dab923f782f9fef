// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// buffer's subscription keeps its state here, as a machine whose events return what to do; the
// subscription itself is in Buffer.swift.

/// `buffer`'s state, kept under its subscription's lock. Each event changes it and returns what
/// the subscription does once it has unlocked; nothing here calls out.
///
/// The caller that takes the delivering `turn` is the only caller of downstream until a
/// `nextDelivery` step gives it back. The stream's end waits in `ending`, not in the turn: a
/// `.finished` waits for an empty ring and demand, and an overflow's failure for downstream's next
/// request.
@usableFromInline
struct BufferState<Value, Failure: Error> {
    @usableFromInline enum Upstream {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// Finished, failed, or cancelled by the buffer (`.customError`): never asked again.
        case done
        /// Downstream cancelled before upstream's subscription came.
        case abandoned
    }

    /// How the stream ends, once decided and not yet delivered.
    @usableFromInline enum Ending {
        /// Upstream finished: delivered once the ring is empty and downstream has demand.
        case finished
        /// Upstream failed (due at once; the ring was dropped) or the ring overflowed under
        /// `.customError` (due at downstream's next request, after the values its demand allows).
        case failure(Failure, isDue: Bool)
    }

    /// What a value that does not fit does: the `BufferingStrategy` without its closure.
    @usableFromInline enum Overflow {
        case dropNewest
        case dropOldest
        case fail
    }

    /// What the subscription does with upstream's subscription.
    @usableFromInline enum Arrival {
        /// A second subscription, or one after the end: cancelled.
        case cancel
        /// Downstream cancelled before it came: as Combine's, the buffer still asks for its
        /// prefetch, and drops what comes.
        case prefetchOnly
        /// Asks for the prefetch, hands downstream its subscription and drains: the caller holds
        /// the turn, so nothing (not even a failure sent inside the first request) reaches
        /// downstream before its subscription.
        case start
    }

    /// What the subscription does with a value from upstream.
    @usableFromInline enum Input {
        case none
        /// The caller holds the turn and a unit of demand: it delivers the value, then drains.
        case deliver
        /// The oldest value left the ring for it; released outside the lock (its deinit is user code).
        case pushedOut(Value)
        /// The ring overflowed under `.customError`: cancels upstream, makes the error, and tells
        /// `overflowed(with:)`.
        case overflowed(cancelling: any Subscription)
    }

    @usableFromInline typealias Step = DeliveryStep<Value, Failure, Never>

    @usableFromInline let size: Int
    @usableFromInline let keepFull: Bool
    @usableFromInline let overflow: Overflow
    @usableFromInline var upstream = Upstream.awaitingSubscription
    @usableFromInline var ring = RingBuffer<Value>()
    /// Requested by downstream and not yet delivered; `UInt.max` is unlimited.
    @usableFromInline var demand: UInt = 0
    @usableFromInline var ending: Ending?
    @usableFromInline var turn = DeliveryTurn<Failure>()
    /// Downstream has its completion or has cancelled.
    @usableFromInline var isTerminated = false
    /// `.keepFull`: values that left the buffer and that upstream has not been asked to replace.
    @usableFromInline var refill = 0

    @inlinable
    init(size: Int, keepFull: Bool, overflow: Overflow) {
        self.size = size
        self.keepFull = keepFull
        self.overflow = overflow
    }

    /// What upstream is asked for first: the buffer's size, or everything.
    @inlinable var prefetch: Subscribers.Demand { keepFull ? .max(size) : .unlimited }

    /// Combine's mirror children: the values held, where the stream is, downstream's demand, and
    /// the completion decided and not yet delivered.
    @usableFromInline var children: KeyValuePairs<String, Any> {
        let status =
            if isTerminated { "terminal" } else if case .subscribed = upstream { "subscribed" } else {
                "awaiting subscription"
            }
        let terminal: Subscribers.Completion<Failure>? =
            switch ending {
            case .finished: .finished
            case .failure(let error, _): .failure(error)
            case nil: nil
            }
        return [
            "values": ring.elements, "state": status,
            "downstreamDemand": Subscribers.Demand.max(Int(clamping: demand)), "terminal": terminal as Any,
        ]
    }

    // MARK: Upstream

    @inlinable
    mutating func upstreamArrived(_ subscription: any Subscription) -> Arrival {
        switch upstream {
        case .awaitingSubscription where !isTerminated:
            upstream = .subscribed(subscription)
            turn.take()
            return .start
        case .abandoned:
            upstream = .done
            return .prefetchOnly
        default:
            return .cancel
        }
    }

    @inlinable
    mutating func received(_ value: Value) -> Input {
        guard case .subscribed(let subscription) = upstream, ending == nil, !isTerminated else { return .none }
        // Straight through when nothing waits: the value never takes a place in the ring.
        if demand != 0 && ring.isEmpty && turn.take() {
            if demand != .max { demand -= 1 }
            if keepFull { refill += 1 }
            return .deliver
        }
        if ring.count < size {
            ring.append(value)
            return .none
        }
        switch overflow {
        case .dropNewest:
            return .none
        case .dropOldest:
            // A buffer of size 0 has nothing to push out and nowhere to put the value.
            guard !ring.isEmpty else { return .none }
            let oldest = ring.removeFirst()
            ring.append(value)
            return .pushedOut(oldest)
        case .fail:
            upstream = .done
            return .overflowed(cancelling: subscription)
        }
    }

    /// `.customError`'s error, made outside the lock: it fails the stream at downstream's next request.
    @inlinable
    mutating func overflowed(with error: Failure) {
        if ending == nil { ending = .failure(error, isDue: false) }
    }

    /// Upstream completed: true if the caller took the turn and drains.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard case .subscribed = upstream, ending == nil, !isTerminated else { return false }
        upstream = .done
        switch completion {
        case .finished:
            ending = .finished
        case .failure(let error):
            // A failure does not wait for the ring: what is buffered is dropped.
            ring.removeAll()
            ending = .failure(error, isDue: true)
        }
        return turn.take()
    }

    // MARK: Downstream

    /// Downstream asked for more: true if the caller took the turn and drains.
    @inlinable
    mutating func requested(_ more: Subscribers.Demand) -> Bool {
        guard !isTerminated else { return false }
        demand = more.adding(to: demand)
        if case .failure(let error, isDue: false) = ending { ending = .failure(error, isDue: true) }
        return turn.take()
    }

    /// Downstream cancelled: upstream's subscription, to cancel, and the values held, to let go
    /// of outside the lock.
    @inlinable
    mutating func cancelled() -> (upstream: (any Subscription)?, dropped: RingBuffer<Value>) {
        isTerminated = true
        let previous = upstream
        switch previous {
        case .awaitingSubscription: upstream = .abandoned
        case .subscribed: upstream = .done
        case .done, .abandoned: break
        }
        let dropped = ring
        ring = RingBuffer()
        guard case .subscribed(let subscription) = previous else { return (nil, dropped) }
        return (subscription, dropped)
    }

    // MARK: Delivery

    /// The holder's next step, after downstream answered `more`: a value from the ring while there
    /// is demand, then the end if it is due; otherwise the turn is given back.
    @inlinable
    mutating func nextDelivery(adding more: Subscribers.Demand) -> Step {
        if more != .none { demand = more.adding(to: demand) }
        guard !isTerminated else {
            turn.giveBack()
            return .ended
        }
        if demand != 0 && !ring.isEmpty {
            if demand != .max { demand -= 1 }
            if keepFull { refill += 1 }
            return .value(ring.removeFirst())
        }
        let due: Subscribers.Completion<Failure>? =
            switch ending {
            case .finished where ring.isEmpty && demand != 0: .finished
            case .failure(let error, isDue: true): .failure(error)
            default: nil
            }
        turn.giveBack()
        guard let due else { return .idle }
        isTerminated = true
        return .completion(due)
    }

    /// `.keepFull`, once the holder gave the turn back: upstream, and how much to ask of it for the
    /// room that values leaving made (none once the stream is over).
    @inlinable
    mutating func takeRefill() -> (upstream: (any Subscription)?, count: Int) {
        let count = refill
        refill = 0
        guard count > 0, !isTerminated, case .subscribed(let subscription) = upstream else { return (nil, count) }
        return (subscription, count)
    }
}
