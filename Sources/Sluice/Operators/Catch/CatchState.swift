// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// catch's and tryCatch's subscription keeps its state here, as a machine whose events return what
// to do; the subscription itself is in Catch.swift.

/// Which of its two sources a `catch` subscription is hearing from.
@usableFromInline
enum CatchSource {
    case upstream
    case replacement
}

/// `catch`'s state, kept under its subscription's lock: the source it reads from and the demand
/// outstanding (kept because the replacement starts with exactly that). Each event changes it and
/// returns what the subscription does once it has unlocked; nothing here calls out.
@usableFromInline
struct CatchState {
    @usableFromInline enum Phase {
        /// Reading from the upstream (its subscription once it has arrived).
        case upstream((any Subscription)?)
        /// The upstream failed; the handler runs or the replacement is subscribing.
        case switching
        /// Reading from the replacement.
        case replacement(any Subscription)
        /// Completed or cancelled.
        case done
    }

    /// What the subscription does when the upstream completes.
    @usableFromInline enum UpstreamEnd {
        case none
        /// As Combine's: a completion after the failure that started the replacement traps.
        case trapAfterFailure
        case finish
        /// Runs the handler (the failed upstream is done: it is let go, not cancelled).
        case recover
    }

    @usableFromInline var phase = Phase.upstream(nil)
    /// Requested by downstream and not yet delivered, plus what it returned from `receive(_:)`.
    @usableFromInline var outstanding = Subscribers.Demand.none

    @inlinable init() {}

    @inlinable var isTerminated: Bool { if case .done = phase { true } else { false } }

    @inlinable
    mutating func subscribed(_ subscription: any Subscription, from source: CatchSource) -> SourceArrival {
        switch (phase, source) {
        case (.upstream(nil), .upstream):
            phase = .upstream(subscription)
            return .handDownstream
        case (.switching, .replacement):
            phase = .replacement(subscription)
            return .request(outstanding)
        default:
            return .cancel
        }
    }

    @inlinable
    mutating func received(from source: CatchSource) -> SourceInput {
        switch (phase, source) {
        case (.upstream(.some), .upstream), (.replacement, .replacement): break
        case (.upstream(nil), .upstream): return .trapBeforeSubscription
        default: return .drop
        }
        return .counted(against: &outstanding)
    }

    /// Downstream answered `more` to a value.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) {
        outstanding += more
    }

    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<some Error>) -> UpstreamEnd {
        switch phase {
        case .upstream(.some): break
        case .switching, .replacement: return .trapAfterFailure
        case .upstream(nil), .done: return .none
        }
        switch completion {
        case .finished:
            phase = .done
            return .finish
        case .failure:
            phase = .switching
            return .recover
        }
    }

    /// The handler returned (a replacement to subscribe, or the error that ends the stream): false
    /// if a cancel from inside it won (nothing is subscribed, nothing is delivered).
    @inlinable
    mutating func recovered(ending: Bool) -> Bool {
        guard case .switching = phase else { return false }
        if ending { phase = .done }
        return true
    }

    /// The replacement completed: true if its completion is the stream's.
    @inlinable
    mutating func replacementCompleted() -> Bool {
        switch phase {
        case .switching, .replacement:
            phase = .done
            return true
        case .upstream, .done:
            return false
        }
    }

    /// Downstream asked for more: the source to pass it to (before the replacement's subscription
    /// arrives, it is asked for all of it then).
    @inlinable
    mutating func requested(_ demand: Subscribers.Demand) -> (any Subscription)? {
        let current: (any Subscription)?
        switch phase {
        case .done: return nil
        case .upstream(let subscription): current = subscription
        case .switching: current = nil
        case .replacement(let subscription): current = subscription
        }
        outstanding += demand
        return current
    }

    /// Downstream cancelled: the current source's subscription, to cancel.
    @inlinable
    mutating func cancelled() -> (any Subscription)? {
        defer { phase = .done }
        switch phase {
        case .upstream(let subscription): return subscription
        case .replacement(let subscription): return subscription
        case .switching, .done: return nil
        }
    }
}
