// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// Outstanding demand as one atomic word; `UInt.max` is `.unlimited` and sticky.
///
/// The counter tells a `request` whether it must start draining: `add` returns the value it found,
/// and only a caller that found 0 owns the drain loop. The owner emits, then calls `settle`, which
/// removes what it emitted (and adds what downstream returned from `receive`) in one atomic step and
/// tells it whether demand remains.
@usableFromInline
struct DemandCounter: ~Copyable {
    @usableFromInline static var unlimited: UInt { .max }

    @usableFromInline let word = Atomic<UInt>(0)

    @inlinable init() {}

    /// Adds demand and returns the demand that was outstanding before.
    @inlinable
    func add(_ demand: Subscribers.Demand) -> UInt {
        var current = word.load(ordering: .relaxed)
        while true {
            let next = current == Self.unlimited ? current : demand.adding(to: current)
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return original }
            current = original
        }
    }

    @inlinable
    func load() -> UInt { word.load(ordering: .acquiring) }

    /// Takes all the outstanding demand, leaving 0.
    @inlinable
    func take() -> Subscribers.Demand {
        Subscribers.Demand(rawValue: word.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Removes `emitted` and adds `returned` (the demand downstream returned while receiving them);
    /// returns what remains outstanding. Unlimited stays unlimited. The owner may have emitted
    /// more than the word held, into the demand returned meanwhile.
    @inlinable
    func settle(emitted: UInt, returned: Subscribers.Demand) -> UInt {
        var current = word.load(ordering: .relaxed)
        while true {
            guard current != Self.unlimited else { return current }
            let next = Self.remaining(returned.adding(to: current), emitted: emitted)
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return next }
            current = original
        }
    }

    /// Whether demand will remain after `settle(took:left:)`.
    @inlinable
    func remains(took: UInt, left: UInt) -> Bool {
        left != 0 || word.load(ordering: .relaxed) != took
    }

    /// Settles a drain that loaded `took` from the word and kept its own count from there: `left` is
    /// what it may still emit (`took`, less what it emitted, plus what downstream returned;
    /// unlimited if any of it was). Whatever other threads added meanwhile stays; returns what
    /// remains outstanding. Unlimited stays unlimited.
    @inlinable
    func settle(took: UInt, left: UInt) -> UInt {
        var current = word.load(ordering: .relaxed)
        while true {
            guard current != Self.unlimited else { return current }
            // Only the owner takes from the word, so it holds at least what the owner took.
            let next = Subscribers.Demand(rawValue: left).adding(to: current - took)
            let (exchanged, original) = word.compareExchange(
                expected: current, desired: next, ordering: .acquiringAndReleasing)
            if exchanged { return next }
            current = original
        }
    }

    /// `available - emitted`, where `available` may be unlimited (and then stays so).
    @inlinable
    static func remaining(_ available: UInt, emitted: UInt) -> UInt {
        available == unlimited ? available : available - emitted
    }
}

extension Subscribers.Demand {
    /// This demand added to a finite count, saturating into `UInt.max` (unlimited).
    @inlinable
    func adding(to count: UInt) -> UInt {
        guard let finite = max else { return .max }
        let (sum, overflow) = count.addingReportingOverflow(UInt(finite))
        return overflow || sum >= UInt(Int.max) ? .max : sum
    }
}
