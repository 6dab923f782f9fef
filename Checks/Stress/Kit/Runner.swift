// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import Synchronization

/// One stress scenario, compiled against one implementation.
public struct StressScenario: Sendable {
    public let name: String
    /// What it checks, one line.
    public let summary: String
    public let run: @Sendable (_ scale: Int) -> StressOutcome

    public init(name: String, summary: String, run: @escaping @Sendable (_ scale: Int) -> StressOutcome) {
        self.name = name
        self.summary = summary
        self.run = run
    }
}

/// What a run did and what it found.
public struct StressOutcome: Sendable {
    /// Values pushed into the pipelines (sends, value sets, source elements emitted on demand).
    public var events: Int
    /// Threads that ran concurrently (producers, requesters, cancellers, churners; not counting the caller).
    public var threads: Int
    public var seconds: Double = 0
    /// Violated invariants, one line each; empty is a pass.
    public var violations: [String]
    /// What else happened (subscribers churned, rounds run), for the report.
    public var notes: String

    public init(events: Int, threads: Int, violations: [String], notes: String = "") {
        self.events = events
        self.threads = threads
        self.violations = violations
        self.notes = notes
    }
}

/// Runs and times a scenario.
public func measure(_ scenario: StressScenario, scale: Int) -> StressOutcome {
    let start = DispatchTime.now().uptimeNanoseconds
    var outcome = scenario.run(scale)
    outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return outcome
}

/// Starts `count` real threads that wait at a common barrier, then run `body(index)` at once;
/// returns when all have finished.
public func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Atomic<Int>(0)
    let done = DispatchGroup()
    let box = UncheckedBox(ready)
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            box.value.add(1, ordering: .sequentiallyConsistent)
            while box.value.load(ordering: .sequentiallyConsistent) < count { spinPause() }
            body(index)
            done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    done.wait()
    _ = box
}

/// Shares a non-copyable atomic with threads started here; it outlives them (`runThreads` waits).
private final class UncheckedBox: @unchecked Sendable {
    let value: Atomic<Int>
    init(_ value: consuming Atomic<Int>) { self.value = value }
}

@inline(__always) public func spinPause() {
    // Lets the other thread on a 2-core machine run when we only wait.
    sched_yield()
}

/// A flag that several threads read and one sets.
public final class Flag: @unchecked Sendable {
    private let raw = Atomic<Bool>(false)
    public init() {}
    public func set() { raw.store(true, ordering: .sequentiallyConsistent) }
    public var isSet: Bool { raw.load(ordering: .sequentiallyConsistent) }
}

/// A counter several threads add to.
public final class Counter: @unchecked Sendable {
    private let raw = Atomic<Int>(0)
    public init() {}
    @discardableResult public func add(_ n: Int) -> Int { raw.add(n, ordering: .relaxed).newValue }
    public var value: Int { raw.load(ordering: .sequentiallyConsistent) }
}

/// A small, fast, per-thread pseudo-random generator (xorshift*), seeded per thread.
public struct FastRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed | 1 }
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
}

/// A list of probes that several threads append to.
public final class ProbeList: @unchecked Sendable {
    private let items = Locked<[Probe]>([])
    public init() {}
    public func append(_ probe: Probe) { items.withLock { $0.append(probe) } }
    public var all: [Probe] { items.withLock { $0 } }
}

/// Lock-guarded storage for values that are not `Sendable` (subscriptions, cancellables) handed
/// between threads on purpose.
///
/// A pthread mutex rather than `Synchronization.Mutex`: the thread sanitizer intercepts
/// pthread_mutex_lock/unlock, but not the futex-based `Mutex` of the (uninstrumented) standard
/// library, so with `Mutex` every access guarded here was reported as a race.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var stored: Value

    public init(_ value: Value) {
        stored = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&stored)
    }
}

/// Formats a run as one table row.
public func row(scenario: String, implementation: String, _ o: StressOutcome) -> String {
    let status = o.violations.isEmpty ? "PASS" : "FAIL"
    let name = scenario.padding(toLength: 34, withPad: " ", startingAt: 0)
    let impl = implementation.padding(toLength: 16, withPad: " ", startingAt: 0)
    let events = String(o.events).leftPad(10)
    let threads = String(o.threads).leftPad(3)
    let time = String(format: "%7.2f s", o.seconds)
    return "\(name) \(impl) \(events) \(threads) \(time)  \(status)"
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}

/// Hands a value that is not `Sendable` (a subject, a subscription, a cancellable) to other threads
/// on purpose: the API under test promises that its methods may be called from any thread.
public struct Shared<Value>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}

/// Keeps the first `limit` lines of a long violation list and says how many more there were.
public func capped(_ lines: [String], limit: Int = 6) -> [String] {
    lines.count <= limit ? lines : Array(lines.prefix(limit)) + ["... and \(lines.count - limit) more like these"]
}
