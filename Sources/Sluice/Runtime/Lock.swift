// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The two locks of the fast runtime, shared with SluiceExt (`package` access).

/// A lock stored inline in its owner: one atomic word, so it costs no allocation. Taking it when
/// free is one compare-and-swap; when taken, it spins briefly and then yields the CPU.
///
/// Sluice holds a `Lock` only for a few instructions, to change state where two threads can truly
/// meet (a `request` racing a completion, say), and never while calling out. See `RuntimeContract.md`.
@frozen @usableFromInline
package struct Lock: ~Copyable {
    @usableFromInline package let isLocked = Atomic<Bool>(false)

    @inlinable package init() {}

    @inlinable
    package func lock() {
        if isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockContended()
    }

    @usableFromInline
    package func lockContended() {
        spinThenYield {
            !isLocked.load(ordering: .relaxed)
                && isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }
    }

    /// A release fence before the releasing store. The fence costs nothing on x86, but it keeps
    /// Swift's ARC optimizer from moving a `swift_retain` down past the unlock: the optimizer does
    /// not count an atomic store as able to release anything, so in `let copy = guarded; unlock()`
    /// it took the retain after the store, when another thread could already have freed what
    /// `guarded` held. (Seen in `SubjectCore.send`: a use-after-free under
    /// `scripts/stress --only cancel`.)
    @inlinable package func unlock() {
        atomicMemoryFence(ordering: .releasing)
        isLocked.store(false, ordering: .releasing)
    }

    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Retries `tryAcquire` until it succeeds: 64 tries back to back, then yielding the CPU between tries.
@usableFromInline
package func spinThenYield(until tryAcquire: () -> Bool) {
    var spins = 0
    while !tryAcquire() {
        spins += 1
        if spins >= 64 { sched_yield() }
    }
}

/// A lock its holder may take again, stored inline (two atomic words, no allocation). A subject
/// holds one per subscriber while delivering to it, so that deliveries to that subscriber are serial
/// while the subscriber may still send into the subject it listens to. Taking it when free is one
/// compare-and-swap; taking it again from the holding thread touches no shared word; when another
/// thread holds it, it spins briefly and then yields the CPU.
///
/// It also hands over the release of what the deliveries use (see "Lifetimes" in `RuntimeContract.md`):
/// the caller that ends the stream asks `requestRelease()`, which answers "release now" when nobody
/// holds the lock, and otherwise marks the holder's word so that the holder's outermost `unlock()`
/// answers it. Nobody waits for a delivery.
@frozen @usableFromInline
package struct ReentrantLock: ~Copyable {
    /// The holder's thread, or 0 when free; bit 0 set asks the holder to release on unlock
    /// (a `pthread_t` is an aligned address, so its bit 0 is clear).
    @usableFromInline package let owner = Atomic<UInt>(0)
    /// How many times the holder took it beyond the first. Only the holder touches it.
    @usableFromInline package let depth = Atomic<UInt>(0)

    @usableFromInline package static var releaseRequested: UInt { 1 }

    @inlinable package init() {}

    @inlinable
    package func lock() {
        if !tryLock() { _ = lockAfterTry() }
    }

    /// Takes the lock if nobody holds it: one compare-and-swap.
    @inlinable
    package func tryLock() -> Bool {
        owner.compareExchange(expected: 0, desired: currentThread(), ordering: .sequentiallyConsistent).exchanged
    }

    /// Takes the lock after `tryLock()` failed: re-enters it if this thread holds it, and returns how
    /// many times it now holds it beyond the first (so that a re-entrant caller can bound its
    /// nesting); otherwise waits for it, and returns 0.
    @inlinable
    package func lockAfterTry() -> UInt {
        let me = currentThread()
        if owner.load(ordering: .relaxed) & ~Self.releaseRequested == me {
            let nested = depth.load(ordering: .relaxed) + 1
            depth.store(nested, ordering: .relaxed)
            return nested
        }
        lockContended(me)
        return 0
    }

    @usableFromInline
    package func lockContended(_ me: UInt) {
        spinThenYield {
            owner.load(ordering: .relaxed) == 0
                && owner.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged
        }
    }

    /// Unlocks; true if a release was asked for while the lock was held (see `requestRelease()`):
    /// the caller releases now, outside the lock.
    @inlinable @discardableResult
    package func unlock() -> Bool {
        let nested = depth.load(ordering: .relaxed)
        if nested > 0 {
            depth.store(nested - 1, ordering: .relaxed)
            return false
        }
        let me = currentThread()
        // An exchange, not a store: it must meet a concurrent `requestRelease()` on this one word.
        // (It also keeps the ARC optimizer from moving a retain past the unlock; see `Lock.unlock()`.)
        if owner.compareExchange(expected: me, desired: 0, ordering: .sequentiallyConsistent).exchanged { return false }
        owner.store(0, ordering: .sequentiallyConsistent)
        return true
    }

    /// Called once, by whoever ended the stream (after making that visible to deliveries): true if
    /// the caller must release now (nobody holds the lock); otherwise the holder's outermost
    /// `unlock()` will answer true instead (also when the caller is the holder, inside a delivery).
    @inlinable
    package func requestRelease() -> Bool {
        let me = currentThread()
        var current = owner.load(ordering: .sequentiallyConsistent)
        while true {
            if current == 0 {
                // Take and give back the lock, so that the next holder sees the stream's end.
                guard owner.compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged
                else {
                    current = owner.load(ordering: .sequentiallyConsistent)
                    continue
                }
                owner.store(0, ordering: .sequentiallyConsistent)
                return true
            }
            if current & ~Self.releaseRequested == me {
                owner.store(current | Self.releaseRequested, ordering: .sequentiallyConsistent)
                return false
            }
            let (exchanged, found) = owner.compareExchange(
                expected: current, desired: current | Self.releaseRequested, ordering: .sequentiallyConsistent)
            if exchanged { return false }
            current = found
        }
    }

    /// The calling thread's identity: its `pthread_t`, which is never 0.
    @inlinable
    package func currentThread() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
