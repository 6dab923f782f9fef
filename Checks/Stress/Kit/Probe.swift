// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization

/// A stress value: the producer's id in the top bits, its own sequence number below, so that every
/// value is unique and each producer's order can be checked at the receiving end.
public enum Tag {
    public static let shift = 40
    @inline(__always) public static func make(producer: Int, seq: Int) -> Int { producer << shift | seq }
    @inline(__always) public static func producer(_ value: Int) -> Int { value >> shift }
    @inline(__always) public static func seq(_ value: Int) -> Int { value & ((1 << shift) - 1) }
}

/// What one subscriber saw, checked against the stream invariants as the events arrive.
///
/// Calls into one subscriber must not overlap: `value` and `terminal` enter an atomic in-flight
/// flag, and an overlap is counted. The flag is deliberately *relaxed*: it adds no happens-before
/// edge of its own, so the plain per-producer state below is ordered only by the library's own
/// synchronisation. If a library delivered two values serially but without a happens-before edge
/// between them, the thread sanitizer reports it on this state (a library fault, not a harness one).
///
/// Demand: whoever calls `request(d)` (or returns `d` from `receive`) calls `grant(d)` first, so
/// that every delivery the demand allows finds it already counted.
///
/// Cancel: the cancelling thread calls `markCancelled()` after `cancel()` returns. An event that
/// enters the subscriber after that is *late*. One late event is allowed: a delivery that the
/// library had already started when `cancel()` was called (it checked "not cancelled", then the
/// other thread cancelled, then it called the subscriber) cannot be recalled by any lock-free or
/// lock-around-state-only design, and Combine does not promise otherwise. Two or more are a failure.
public final class Probe: @unchecked Sendable {
    public let label: String
    public let producers: Int
    /// After a producer's first value, each next one must be exactly the next sequence number
    /// (the subscriber had unlimited demand and saw every send): a gap is a lost value.
    public let contiguous: Bool
    /// With `contiguous`, the first value of every producer must be sequence number `firstSeq`.
    public let firstSeq: Int?

    private let inFlight = Atomic<Bool>(false)
    private let overlaps = Atomic<Int>(0)
    private let grantedTotal = Atomic<Int>(0)
    private let receivedTotal = Atomic<Int>(0)
    private let terminalCount = Atomic<Int>(0)
    private let failureCount = Atomic<Int>(0)
    private let cancelReturned = Atomic<Bool>(false)
    private let late = Atomic<Int>(0)
    private let afterTerminal = Atomic<Int>(0)
    private let overDemand = Atomic<Int>(0)

    // Plain state: touched only inside non-overlapping calls into the subscriber.
    private var last: [Int]
    private var counts: [Int]
    private var duplicates = 0
    private var reorders = 0
    private var gaps = 0
    private var firstExample: String?

    public init(_ label: String, producers: Int, contiguous: Bool = false, firstSeq: Int? = nil) {
        self.label = label
        self.producers = producers
        self.contiguous = contiguous
        self.firstSeq = firstSeq
        last = Array(repeating: -1, count: producers)
        counts = Array(repeating: 0, count: producers)
    }

    // MARK: recording

    /// Counts demand about to be requested; `nil` is `.unlimited`.
    @inline(__always)
    public func grant(_ n: Int?) {
        guard let n else {
            grantedTotal.store(Int.max, ordering: .sequentiallyConsistent)
            return
        }
        while true {
            let old = grantedTotal.load(ordering: .sequentiallyConsistent)
            let new = old > Int.max - n ? Int.max : old + n
            if grantedTotal.compareExchange(expected: old, desired: new, ordering: .sequentiallyConsistent).exchanged {
                return
            }
        }
    }

    public func markCancelled() { cancelReturned.store(true, ordering: .sequentiallyConsistent) }

    public var received: Int { receivedTotal.load(ordering: .relaxed) }
    public var granted: Int { grantedTotal.load(ordering: .sequentiallyConsistent) }
    public var terminals: Int { terminalCount.load(ordering: .sequentiallyConsistent) }

    @inline(__always)
    public func value(_ v: Int) {
        let n = receivedTotal.add(1, ordering: .relaxed).newValue
        if n > grantedTotal.load(ordering: .sequentiallyConsistent) { overDemand.add(1, ordering: .relaxed) }
        if cancelReturned.load(ordering: .sequentiallyConsistent) { late.add(1, ordering: .relaxed) }
        if terminalCount.load(ordering: .sequentiallyConsistent) > 0 { afterTerminal.add(1, ordering: .relaxed) }
        if inFlight.exchange(true, ordering: .relaxed) {
            overlaps.add(1, ordering: .relaxed)
            return
        }
        defer { inFlight.store(false, ordering: .relaxed) }
        let p = Tag.producer(v), s = Tag.seq(v)
        guard p >= 0, p < producers else {
            note("value from unknown producer \(p)")
            reorders += 1
            return
        }
        let previous = last[p]
        if s == previous {
            duplicates += 1
            note("producer \(p) seq \(s) delivered twice in a row")
        } else if s < previous {
            reorders += 1
            note("producer \(p) seq \(s) after seq \(previous) (reordered or duplicated)")
        } else if contiguous {
            if previous == -1 {
                if let firstSeq, s != firstSeq {
                    gaps += 1
                    note("producer \(p) starts at seq \(s), expected \(firstSeq)")
                }
            } else if s != previous + 1 {
                gaps += 1
                note("producer \(p) seq \(s) after seq \(previous): \(s - previous - 1) lost")
            }
        }
        if s > previous { last[p] = s }
        counts[p] += 1
    }

    public func terminal(failed: Bool) {
        if cancelReturned.load(ordering: .sequentiallyConsistent) { late.add(1, ordering: .relaxed) }
        if inFlight.exchange(true, ordering: .relaxed) {
            overlaps.add(1, ordering: .relaxed)
        } else {
            inFlight.store(false, ordering: .relaxed)
        }
        terminalCount.add(1, ordering: .sequentiallyConsistent)
        if failed { failureCount.add(1, ordering: .relaxed) }
    }

    private func note(_ s: String) { if firstExample == nil { firstExample = s } }

    // MARK: checking (call once every thread that could touch the subscriber has been joined)

    /// The invariants, as failures. `perProducer`: exactly this many values from each producer (no
    /// loss); `terminals`: the allowed number of terminal events; `failures`: of which failures.
    public func check(
        perProducer expected: [Int]? = nil,
        total: Int? = nil,
        terminals allowed: ClosedRange<Int>,
        failures allowedFailures: ClosedRange<Int>? = nil,
        lateAllowance: Int = 1
    ) -> [String] {
        var out: [String] = []
        let name = "[\(label)]"
        if overlaps.load(ordering: .relaxed) > 0 {
            out.append("\(name) overlapping calls into the subscriber: \(overlaps.load(ordering: .relaxed))")
        }
        if duplicates > 0 { out.append("\(name) duplicated values: \(duplicates) (\(firstExample ?? ""))") }
        if reorders > 0 { out.append("\(name) producer order broken: \(reorders) (\(firstExample ?? ""))") }
        if gaps > 0 {
            out.append("\(name) lost values (gaps in a producer's sequence): \(gaps) (\(firstExample ?? ""))")
        }
        if overDemand.load(ordering: .relaxed) > 0 {
            out.append(
                "\(name) more values than demanded: \(overDemand.load(ordering: .relaxed)) beyond; received \(received), granted \(granted)"
            )
        }
        if afterTerminal.load(ordering: .relaxed) > 0 {
            out.append("\(name) values after the terminal event: \(afterTerminal.load(ordering: .relaxed))")
        }
        let lateCount = late.load(ordering: .relaxed)
        if lateCount > lateAllowance {
            out.append(
                "\(name) events after cancel() returned: \(lateCount) (allowance \(lateAllowance): one delivery already in flight)"
            )
        }
        let t = terminals
        if !allowed.contains(t) { out.append("\(name) terminal events: \(t), expected \(allowed)") }
        if let allowedFailures, !allowedFailures.contains(failureCount.load(ordering: .relaxed)) {
            out.append("\(name) failures: \(failureCount.load(ordering: .relaxed)), expected \(allowedFailures)")
        }
        if let expected, expected != counts {
            let lost = zip(expected, counts).map { $0 - $1 }
            out.append("\(name) values per producer \(counts), expected \(expected) (missing \(lost))")
        }
        if let total, total != received { out.append("\(name) received \(received) values, expected \(total)") }
        return out
    }

    /// The number of values this probe saw from each producer.
    public var perProducerCounts: [Int] { counts }
}
