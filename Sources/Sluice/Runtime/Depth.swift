// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// How deep Sluice's own recursion may go on one thread before it turns into a loop.
///
/// A subscriber that sends into the subject it listens to re-enters the subject's delivery from
/// inside `receive`, as in Combine: the new value is delivered before `send` returns. Up to this
/// many deliveries nest; a value sent from inside the deepest waits, and the delivery one level up
/// delivers it as soon as its `receive` returns. So a send 10,000 deep keeps a bounded stack (in
/// debug builds too, and on a 512 KiB thread) while shallow re-entrance keeps Combine's order.
@usableFromInline let nestedDeliveryLimit: UInt = 32

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calls of Sluice's own that nest without bound when publishers nest without bound (`flatMap`
/// in `flatMap`, 10,000 deep: each inner subscription, value and completion goes one level further
/// in) count their depth on their thread here. Past `nestedDeliveryLimit` a call is deferred, and
/// the deepest call runs what was deferred, in order, as soon as its own work returns: the stack
/// stays bounded, and shallow nesting runs exactly as in Combine.
///
///     let trampoline = Trampoline.current
///     if trampoline.enter() { work(); trampoline.leave() } else { trampoline.defer { work() } }
@usableFromInline
final class Trampoline {
    /// How many entered calls are running on this thread, one inside the other.
    @usableFromInline var depth: UInt = 0
    /// The calls deferred by the deepest one, in order.
    @usableFromInline var deferred: [() -> Void] = []

    @usableFromInline init() {}

    /// The calling thread's trampoline.
    @inlinable static var current: Trampoline {
        guard let raw = pthread_getspecific(trampolineKey) else { return makeCurrent() }
        return Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
    }

    @usableFromInline static func makeCurrent() -> Trampoline {
        let trampoline = Trampoline()
        // Released by the key's destructor when the thread exits.
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Enters a call: false when the thread is too deep already, and the call must be deferred.
    @inlinable func enter() -> Bool {
        guard depth < nestedDeliveryLimit else { return false }
        depth += 1
        return true
    }

    /// Leaves a call entered with `enter()`. The deepest call runs the calls deferred inside it
    /// (they run at its depth, so what they defer in turn comes back to this loop).
    @inlinable func leave() {
        if depth == nestedDeliveryLimit && !deferred.isEmpty { runDeferred() }
        depth -= 1
    }

    /// Defers a call the thread is too deep to make now.
    @usableFromInline func `defer`(_ call: @escaping () -> Void) { deferred.append(call) }

    @usableFromInline func runDeferred() {
        var next = 0
        while next < deferred.count {
            let call = deferred[next]
            next += 1
            call()
        }
        deferred.removeAll(keepingCapacity: true)
    }
}

/// The key of each thread's `Trampoline`.
@usableFromInline let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        // (Optional on Linux, not on Darwin.)
        if let raw = raw as UnsafeMutableRawPointer? { Unmanaged<Trampoline>.fromOpaque(raw).release() }
    }
    return key
}()
