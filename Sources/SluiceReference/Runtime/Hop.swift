// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// The signals an operator hops to a scheduler (values and the completion for downstream, or the
/// calls `subscribe(on:)` makes upstream), delivered one at a time and in the order the operator
/// decided them, however the scheduler runs its actions.
///
/// The rule: on any scheduler, serial or concurrent, an operator that hops signals to a scheduler
/// delivers every value sent before the completion before it, in the order sent, one at a time,
/// and nothing after it. A concurrent scheduler (`DispatchQueue.global()`, an `OperationQueue`
/// running several operations) may run actions in any order and at the same time, so the operator
/// keeps the order, here:
///
/// - The operator enqueues each signal, with its own lock held (so the queue's order is the order
///   it decided in), and makes exactly one `run` for it: the action it schedules for the signal,
///   or the call that decided it.
/// - A run delivers the oldest signal waiting, not necessarily its own. One run delivers at a
///   time: a run that finds another one delivering leaves it one more signal to deliver and
///   returns at once.
///
/// So on a serial scheduler each run delivers its own signal, when it always did; on a concurrent
/// one the order holds; and a re-entrant run (`ImmediateScheduler`, a subscriber that sends into
/// upstream from inside `receive`) does not deadlock: its signal follows when the delivery under
/// way returns.
///
/// It shares its owner's lock, so a subscription still has one lock.
final class Hop<Signal> {
    private let lock: Lock
    /// The signals waiting, oldest first.
    private var waiting = Queue<Signal>()
    /// Whether a run is delivering: the others leave their signal to it.
    private var isDelivering = false
    /// How many more signals the delivering run owes: one for each run that found it delivering.
    private var owed = 0

    /// `lock` is the owner's: `enqueue` and `removeAll` are called with it held, `run` without.
    init(lock: Lock) {
        self.lock = lock
    }

    /// Puts `signal` behind the ones waiting. With the owner's lock held; make one `run` for it.
    func enqueue(_ signal: Signal) {
        waiting.append(signal)
    }

    /// Empties the queue, for a cancel: nothing waiting is delivered. With the owner's lock held;
    /// let go of what it returns after unlocking (a deinit may re-enter).
    func removeAll() -> [Signal] {
        owed = 0
        return waiting.removeAll()
    }

    /// One signal's run: delivers the oldest signal waiting with `deliver`, then, if other runs
    /// came meanwhile, one more for each; or leaves its signal to the run already delivering.
    /// Without the owner's lock, which `deliver` may take.
    func run(_ deliver: (Signal) -> Void) {
        var next: Signal? = lock.withLock {
            if isDelivering {
                owed += 1
                return nil
            }
            // Empty only after a cancel.
            guard let first = waiting.popFirst() else { return nil }
            isDelivering = true
            return first
        }
        while let signal = next {
            deliver(signal)
            next = lock.withLock {
                guard owed > 0, let following = waiting.popFirst() else {
                    isDelivering = false
                    return nil
                }
                owed -= 1
                return following
            }
        }
    }
}
