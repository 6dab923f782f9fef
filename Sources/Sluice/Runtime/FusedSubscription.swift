// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// Drives a fused chain for any subscriber. See `RuntimeContract.md`.
///
/// The thread that moves demand from 0 to non-zero owns the drain loop; others only add demand.
/// The owner is the only one that touches the cursor or calls downstream, so signals are serial.
///
/// Lifetimes: the demand word doubles as the right to touch the cursor and downstream. Whoever
/// ends the stream lets go of both (the chain's closures live in the cursor): the drain owner when
/// it finishes or sees a cancel, or `cancel()` itself when it can take the word from 0 (no drain
/// running). A word taken that way is never given back, so no drain starts after.
///
/// `request` arrives through `any Subscription`, which for a generic class always runs the
/// unspecialised method body. So the drain is entered through `drainEntry`, a closure made in
/// `init`: `init` is inlined where the subscription is created (in the user's module, with
/// concrete types), so the closure, and the whole loop it calls, is specialised.
@usableFromInline
final class FusedSubscription<Cursor: _Runtime.FusedCursor, Downstream: Subscriber>: Subscription, Introspected
where Downstream.Input == Cursor.Output, Downstream.Failure == Cursor.Failure {
    /// Touched only by the drain owner; the cursor is out of here while a drain runs.
    @exclusivity(unchecked)
    @usableFromInline var cursor: Releasable<Cursor>
    @exclusivity(unchecked)
    @usableFromInline var downstream: Releasable<Downstream>
    @usableFromInline let demand = DemandCounter()
    /// Set by `cancel()` and on termination; read before every element.
    @usableFromInline let isDone = Atomic<Bool>(false)
    /// The specialised drain loop (see above), and `release()` specialised for `cancel()`.
    /// What the subscription says it is once the cursor is gone (see `description`).
    @usableFromInline let name: StaticString
    /// The completion delivered, for the mirror once the cursor is gone (see `customMirror`).
    @exclusivity(unchecked)
    @usableFromInline var ending: Subscribers.Completion<Downstream.Failure>?
    @usableFromInline let drainEntry: (FusedSubscription) -> Void
    @usableFromInline let releaseEntry: (FusedSubscription) -> Void

    @inlinable
    init(cursor: Cursor, downstream: Downstream) {
        name = cursor._name
        self.cursor = Releasable(cursor)
        self.downstream = Releasable(downstream)
        drainEntry = { $0.drain() }
        releaseEntry = { $0.release() }
    }

    /// Introspection reads the cursor, which is out of here while a drain runs and gone once the chain
    /// ended: it is meant for the subscriber's own thread between deliveries (`receive(subscription:)`,
    /// a debugger); otherwise the subscription says only its source's or operator's name.
    @usableFromInline var reflection: _Runtime.Reflection? {
        cursor.value?._reflection(downstream: downstream.value as Any)
    }

    @usableFromInline var description: String { reflection?.description ?? "\(name)" }

    @usableFromInline var customMirror: Mirror {
        reflection?.mirror(of: self)
            ?? Mirror(self, children: Cursor._endedChildren(completion: ending.map { $0 as Any }))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        if !Cursor._traits.contains(.acceptsZeroDemand) { demand.assertNonZero(on: description) }
        guard demand != .none else { return }
        guard !isDone.load(ordering: .relaxed) else { return }
        if self.demand.add(demand) == 0 { drainEntry(self) }
    }

    @inlinable
    func cancel() {
        guard !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // No drain is running if the word was 0: then this call holds it for good and releases.
        if demand.add(.max(1)) == 0 { releaseEntry(self) }
    }

    /// The drain owner's loop. Only the owner of the demand word runs it, and the word is never
    /// handed back once the chain is released, so `cursor` and `downstream` are there. The cursor
    /// is a local while the loop runs (mutated through the optional in place, a long chain's
    /// cursor crashed the 6.3.1 optimizer); it goes back before the word can be handed back.
    @inlinable
    func drain() {
        var cursor = self.cursor.take()
        var outstanding = demand.load()
        while true {
            // What may still be emitted before settling: the demand taken, less what went out, plus
            // what downstream returned, folded in here rather than by an atomic settle after each
            // value (`.max(1)` per value runs the whole stream without one). Unlimited stays so.
            var remaining = outstanding
            // Checked again after each step, so once per value in all.
            if isDone.load(ordering: .relaxed) { return release() }
            if remaining != 0 {
                repeat {
                    switch cursor.next() {
                    case .value(let value):
                        let more = downstream.with { $0.receive(value) }
                        // One more for each value (`.max(1)`, the commonest demand-driven subscriber)
                        // leaves the count as it was: with `receive` inlined, no arithmetic at all.
                        if remaining != DemandCounter.unlimited, more != .max(1) {
                            remaining = more.adding(to: remaining - 1)
                        }
                    case .skip:
                        break
                    case .finished:
                        return finish(.finished)
                    case .failure(let error):
                        return finish(.failure(error))
                    }
                    // A cancel from inside the delivery stops the source before it looks at its end (a
                    // concatenation would start its suffix there).
                    if isDone.load(ordering: .relaxed) { return release() }
                    if cursor.isExhausted { return finish(cursor.exhaustedCompletion()) }
                } while remaining != 0
            }
            // Demand only grows under the owner's feet, so if some is left now, the word stays
            // ours; otherwise the cursor goes back first, and is taken again if demand came in.
            if demand.remains(took: outstanding, left: remaining) {
                outstanding = demand.settle(took: outstanding, left: remaining)
                continue
            }
            self.cursor = .held(cursor)
            outstanding = demand.settle(took: outstanding, left: remaining)
            if outstanding == 0 { return }
            cursor = self.cursor.take()
        }
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        if !isDone.exchange(true, ordering: .acquiringAndReleasing) {
            ending = completion
            downstream.with { $0.receive(completion: completion) }
        }
        release()
    }

    /// Lets go of the chain and the subscriber: called once, by whoever holds the demand word.
    @inlinable
    func release() {
        cursor.release()
        downstream.release()
    }
}
