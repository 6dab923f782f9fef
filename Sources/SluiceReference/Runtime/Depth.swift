// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// How deep Sluice's own recursion may go on one thread before it turns into a loop.
///
/// A subscriber that sends into the subject it listens to re-enters the subject's delivery from
/// inside `receive`, as in Combine: the new value is delivered before `send` returns. Up to this
/// many deliveries nest; a value sent from inside the deepest waits, and the delivery one level up
/// delivers it as soon as its `receive` returns. So a send 10,000 deep keeps a bounded stack (in
/// debug builds too, and on a 512 KiB thread) while shallow re-entrance keeps Combine's order.
let nestedDeliveryLimit = 32

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calls that nest without bound when publishers nest without bound (`flatMap` in `flatMap`,
/// 10,000 deep: each inner subscription, value and completion goes one level further in) count
/// their depth on their thread here. Past `nestedDeliveryLimit` a call is deferred, and the deepest
/// call runs what was deferred, in order, as soon as its own work returns: the stack stays bounded,
/// and shallow nesting runs exactly as in Combine.
final class Trampoline {
    /// How many entered calls are running on this thread, one inside the other.
    private var depth = 0
    /// The calls deferred by the deepest one, in order.
    private var deferred: [() -> Void] = []

    /// The calling thread's trampoline.
    static var current: Trampoline {
        if let raw = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(raw).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        // Released by the key's destructor when the thread exits.
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }

    /// Makes the call now, or later if the thread is too deep.
    static func run(_ call: @escaping () -> Void) {
        let trampoline = current
        if trampoline.enter() {
            call()
            trampoline.leave()
        } else {
            trampoline.defer(call)
        }
    }

    /// Enters a call: false when the thread is too deep already, and the call must be deferred.
    func enter() -> Bool {
        guard depth < nestedDeliveryLimit else { return false }
        depth += 1
        return true
    }

    /// Leaves a call entered with `enter()`. The deepest call runs the calls deferred inside it
    /// (they run at its depth, so what they defer in turn comes back to this loop).
    func leave() {
        if depth == nestedDeliveryLimit {
            var next = 0
            while next < deferred.count {
                let call = deferred[next]
                next += 1
                call()
            }
            deferred.removeAll()
        }
        depth -= 1
    }

    /// Defers a call the thread is too deep to make now.
    func `defer`(_ call: @escaping () -> Void) { deferred.append(call) }
}

/// The key of each thread's `Trampoline`.
private let trampolineKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { raw in
        // (Optional on Linux, not on Darwin.)
        if let raw = raw as UnsafeMutableRawPointer? { Unmanaged<Trampoline>.fromOpaque(raw).release() }
    }
    return key
}()
