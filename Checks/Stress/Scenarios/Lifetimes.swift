// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import StressKit

// The lifetime stress scenario: subscribers that keep their subscription, as custom
// subscribers do, subscribe to a subject through a `map` whose closure captures an object, get a
// value, and are cancelled, a million times over 4 threads. Every subscriber and every captured
// object must be gone at the end (a live-object count), and at full scale the process's resident
// memory must stay flat (a subscription that kept its subscriber would keep both, and the memory
// would grow with the number of cycles).
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Counts live objects of the scenario: each adds one when made and takes one when freed.
final class LiveCount: @unchecked Sendable {
    let live = Counter()
}

/// An object the `map` closure captures.
final class CapturedByMap: @unchecked Sendable {
    let count: LiveCount
    init(_ count: LiveCount) {
        self.count = count
        count.live.add(1)
    }
    deinit { count.live.add(-1) }
    func touch(_ value: Int) -> Int { value &+ 1 }
}

/// A subscriber that keeps its subscription for good (it never lets go of it) and cancels it
/// after its first value, either from inside `receive` or from its own thread afterwards.
final class KeepingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let count: LiveCount
    let cancelsInside: Bool
    let received = Flag()
    private let subscription = Locked<(any Subscription)?>(nil)

    init(_ count: LiveCount, cancelsInside: Bool) {
        self.count = count
        self.cancelsInside = cancelsInside
        count.live.add(1)
    }

    deinit { count.live.add(-1) }

    func receive(subscription: any Subscription) {
        self.subscription.withLock { $0 = subscription }
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.set()
        if cancelsInside { cancel() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    /// Cancels the kept subscription (and still keeps it).
    func cancel() { subscription.withLock { $0 }?.cancel() }
}

/// The process's resident memory in bytes (Linux: /proc/self/statm), or nil where unknown.
func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// How much the resident memory may grow between the first tenth of the cycles and the end, at
/// full scale: allocator slack and the probes' own bookkeeping, well under what a million kept
/// subscribers would hold (each cycle leaks at least two objects and a closure context, over 100
/// bytes, so 10^6 leaked cycles hold more than 100 MB).
let residentGrowthBound = 16 << 20

@Sendable func lifetimesSubscribeSendCancel(scale: Int) -> StressOutcome {
    let threads = 4
    let perThread = max(1, scale / threads)
    let count = LiveCount()
    let subject = PassthroughSubject<Int, Never>()
    let shared = Shared(subject)
    let cycles = Counter()
    let warm = Locked<Int?>(nil)
    runThreads(threads) { index in
        let subject = shared.value
        for cycle in 0..<perThread {
            let captured = CapturedByMap(count)
            let subscriber = KeepingSubscriber(count, cancelsInside: (cycle + index) % 2 == 0)
            subject.map { captured.touch($0) }.subscribe(subscriber)
            subject.send(cycle)
            // Another thread's send may have reached this subscriber first, or not at all yet.
            subscriber.cancel()
            if cycles.add(1) == scale / 10 { warm.withLock { $0 = residentBytes() } }
        }
    }
    var violations: [String] = []
    // Every subscriber and captured object of the run must be gone: nothing else holds them.
    if count.live.value != 0 {
        violations.append(
            "\(count.live.value) subscribers and captured objects still alive after \(cycles.value) cycles")
    }
    var notes = "\(cycles.value) subscribe/send/cancel cycles, live objects at the end: \(count.live.value)"
    if let before = warm.withLock({ $0 }), let after = residentBytes() {
        let growth = after - before
        notes += ", resident memory \(before >> 20) MB after the first tenth, \(after >> 20) MB at the end"
        // Only at full scale: in `swift test` other tests share the process and its memory.
        if scale >= 1_000_000 && growth > residentGrowthBound {
            violations.append(
                "resident memory grew by \(growth >> 20) MB over the run (bound \(residentGrowthBound >> 20) MB)")
        }
    }
    withExtendedLifetime(subject) {}
    return StressOutcome(events: cycles.value, threads: threads, violations: violations, notes: notes)
}
