// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Thread tests start their own threads rather than borrowing Dispatch's pool: the pool is as wide
// as the machine (2 threads here) and shared with the tests running beside them, so work put on it
// may wait for a free thread, and a test that needs two threads at once might not get them.

/// Runs `body` on a new thread; `wait()` on the returned group waits for it to end.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    group.enter()
    startThread {
        body()
        group.leave()
    }
    return group
}

/// Runs `body(0)` … `body(count - 1)` each on its own thread, all at once, and waits for them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        startThread {
            body(index)
            group.leave()
        }
    }
    group.wait()
}

/// Starts a detached thread that runs `body`.
private func startThread(_ body: @escaping @Sendable () -> Void) {
    final class Job {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, job)
    precondition(status == 0, "pthread_create failed")
    #if canImport(Darwin)
    pthread_detach(thread!)
    #else
    pthread_detach(thread)
    #endif
}

/// A lock around some state, for the threaded tests' own bookkeeping. A pthread mutex, because
/// the thread sanitizer sees through it (it does not see `Synchronization.Mutex`'s futex).
final class TestLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
    }
}
