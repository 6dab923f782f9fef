// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

// A concatenation's subscription keeps its state here, as a machine whose events return what to
// do; the subscription itself is in Concatenate.swift.

/// A concatenation's state, kept under its subscription's lock: the parts still to run (the
/// prefix, then the parts nested concatenations handed over, then the suffix), the one that runs,
/// and the demand owed to the next. Each event changes it and returns what the subscription does
/// once it has unlocked; nothing here calls out.
///
/// Parts are numbered from 0, the prefix. A signal from a part other than the current one, or
/// from the current one before its subscription or after it ended, is ignored, as in Combine.
@usableFromInline
struct ConcatenateState<Suffix: Publisher>: PublishingState {
    @usableFromInline typealias Part = AnyPublisher<Suffix.Output, Suffix.Failure>
    /// What the stream lets go of once it has ended: the parts that never ran.
    @usableFromInline typealias Leftovers = (suffix: Suffix?, parts: [Part])

    @usableFromInline enum Phase {
        /// The current part is subscribing; the first's subscription is the one downstream gets.
        case awaiting(isFirst: Bool)
        /// The current part runs; the last one's demand passes straight through.
        case running(any Subscription, isLast: Bool)
        /// Completed or cancelled.
        case done
    }

    /// What the subscription does when the current part completes.
    @usableFromInline enum PartEnd {
        case none
        /// Subscribes the next part.
        case next
        /// The stream ends with that completion.
        case end(Leftovers)
    }

    /// Where downstream's answer to a value goes.
    @usableFromInline enum Answer {
        /// To the part that sent it, as its `receive(_:)`'s result.
        case toSender
        /// To the part that runs now (the sender finished from inside that `receive(_:)`).
        case request(any Subscription)
        /// Kept for the next part (`owed`), or dropped after the end.
        case kept
    }

    @usableFromInline var phase = Phase.awaiting(isFirst: true)
    /// The current part's number.
    @usableFromInline var part = 0
    /// Parts handed over by nested concatenations, to run before `suffix`; the next last.
    @usableFromInline var parts: [Part] = []
    /// Kept until it is subscribed, and let go if the stream ends first.
    @usableFromInline var suffix: Suffix?
    /// While parts remain after the current one: what downstream asked for and has not received,
    /// so that the next part is asked for exactly that.
    @usableFromInline var owed = Subscribers.Demand.none
    /// The part whose subscribe call is in progress: only it may hand over its parts.
    @usableFromInline var subscribing: Int? = 0
    /// Set when the call in progress handed over its parts, the first of which is then subscribed.
    @usableFromInline var handedOver = false

    @inlinable init(suffix: Suffix) { self.suffix = suffix }

    /// The number of the last part while it runs, -1 otherwise: its values pass without the lock.
    @inlinable var published: Int {
        if case .running(_, isLast: true) = phase { part } else { -1 }
    }

    // MARK: Subscribing the parts

    /// The next part to subscribe, with its number and whether it is the first; nil when no part is
    /// awaited or none is left.
    @inlinable
    mutating func nextPart() -> (part: Part, number: Int, isFirst: Bool)? {
        guard case .awaiting(let isFirst) = phase else { return nil }
        let next: Part
        if let handed = parts.popLast() {
            next = handed
        } else if let last = suffix {
            suffix = nil
            next = AnyPublisher(last)
        } else {
            return nil
        }
        part = isFirst ? 0 : part + 1
        subscribing = part
        return (next, part, isFirst)
    }

    /// Part `number`'s subscribe call returned: true if the part handed over its parts (the first
    /// of them is then to be subscribed).
    @inlinable
    mutating func subscribeReturned(from number: Int) -> Bool {
        if subscribing == number { subscribing = nil }
        defer { handedOver = false }
        return handedOver
    }

    /// Part `number`, being subscribed, is itself a concatenation: its two parts take its place.
    /// False unless it is the awaited part and its subscribe call is in progress.
    @inlinable
    mutating func handOver(_ prefix: Part, _ suffix: Part, from number: Int) -> Bool {
        guard subscribing == number, number == part, case .awaiting(let isFirst) = phase else { return false }
        parts.append(suffix)
        parts.append(prefix)
        // The next part subscribed takes this one's number.
        if !isFirst { part -= 1 }
        handedOver = true
        return true
    }

    // MARK: From the parts

    /// Part `number`'s subscription arrived. A later part is asked for what the ones before left
    /// owed; from the last part on, downstream's demand passes straight through.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription, from number: Int) -> SourceArrival {
        guard number == part, case .awaiting(let isFirst) = phase else { return .cancel }
        let isLast = parts.isEmpty && suffix == nil
        phase = .running(subscription, isLast: isLast)
        if isFirst { return .handDownstream }
        let ask = owed
        if isLast { owed = .none }
        return .request(ask)
    }

    /// A value from part `number` while parts remain after it: true to deliver it, counted against
    /// what is owed. A value nobody asked for is not delivered: the count must stay exact for the
    /// next part.
    @inlinable
    mutating func received(from number: Int) -> Bool {
        guard case .running(_, isLast: false) = phase, number == part, owed > 0 else { return false }
        owed -= 1
        return true
    }

    /// Downstream answered `more` to a value from part `number` (a part with parts after it).
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand, from number: Int) -> Answer {
        switch phase {
        case .running(let current, let isLast):
            if !isLast { owed += more }
            return number == part && !isLast ? .toSender : .request(current)
        case .awaiting(isFirst: false):
            owed += more
            return .kept
        case .awaiting(isFirst: true), .done:
            return .kept
        }
    }

    @inlinable
    mutating func completed(_ completion: Subscribers.Completion<Suffix.Failure>, from number: Int) -> PartEnd {
        guard number == part, case .running(_, let isLast) = phase else { return .none }
        if !isLast, case .finished = completion {
            phase = .awaiting(isFirst: false)
            return .next
        }
        return .end(end())
    }

    // MARK: From downstream

    /// Downstream asked for more: the part to pass it to, if one runs.
    @inlinable
    mutating func requested(_ demand: Subscribers.Demand) -> (any Subscription)? {
        switch phase {
        case .running(let current, let isLast):
            if !isLast { owed += demand }
            return current
        case .awaiting(isFirst: false):
            owed += demand
            return nil
        case .awaiting(isFirst: true), .done:
            return nil
        }
    }

    /// Downstream cancelled: the part that runs, to cancel, and the parts that never ran.
    @inlinable
    mutating func cancelled() -> (current: (any Subscription)?, leftovers: Leftovers) {
        let current: (any Subscription)? = if case .running(let subscription, _) = phase { subscription } else { nil }
        return (current, end())
    }

    /// The stream ends: the parts that never ran, for the caller to let go of outside the lock.
    @inlinable
    mutating func end() -> Leftovers {
        phase = .done
        defer {
            suffix = nil
            parts = []
        }
        return (suffix, parts)
    }
}
