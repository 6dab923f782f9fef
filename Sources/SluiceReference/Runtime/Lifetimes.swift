// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Lifetimes in the reference (Combine: `Cancellable.cancel()` "should also eliminate any strong
// references"; Reactive Streams rule 3.13).
//
// A subscription holds its downstream, the operator's closures (and so whatever they capture) and
// its upstream subscriptions only while its stream is live, in its state, and lets go of them the
// moment the stream ends: at a cancel, at the completion, at a failure. A subscriber that stores
// its subscription (custom subscribers do) therefore forms no cycle that outlives the stream.
//
// Whoever ends the stream moves the state on under the lock and takes out what it held; that is
// used (downstream told of the completion, upstream cancelled) and dropped only after the lock is
// released, because a deinit may run any code, calls into this very subscription included. A value
// or completion in flight on another thread read downstream under the lock into a local, so it
// keeps its own reference until its call returns.

/// Sets `value` to `replacement` and returns what it held: the caller takes it out under its lock
/// and acts on it (and drops it) after releasing the lock.
func exchange<Value>(_ value: inout Value, with replacement: Value) -> Value {
    let previous = value
    value = replacement
    return previous
}

extension Subscriber {
    /// The stream's last value, if any, then `completion`, which does not follow a cancel made
    /// meanwhile (from inside the value's `receive`, or on another thread): nothing follows a cancel.
    func receiveLast(
        _ value: Input?, then completion: Subscribers.Completion<Failure>, unlessCancelled cancelled: () -> Bool
    ) {
        if let value {
            _ = receive(value)
            if cancelled() { return }
        }
        receive(completion: completion)
    }
}
