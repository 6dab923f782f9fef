// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import ScenariosSluice
import Synchronization

/// The limit: each scenario's work as a plain loop, with the same stage functions.
enum HandWritten {
    @inline(never)
    static func mapFilter(_ input: [Int]) -> Int {
        var sum = 0
        for x in input {
            let y = Stages.triple(x)
            if Stages.isEven(y) { sum &+= y }
        }
        return sum
    }

    /// The 8-stage chain's stages: the value they let through, if any.
    @inline(__always)
    static func eightStages(_ x: Int) -> Int? {
        let a = x &+ 1
        guard a & 7 != 0 else { return nil }
        let b = a &* 3
        guard b & 1 == 0 else { return nil }
        let c = b &- 2
        guard c > 5 else { return nil }
        let d = c ^ 1
        guard d != 100 else { return nil }
        return d
    }

    @inline(never)
    static func eightStage(_ input: [Int]) -> Int {
        var sum = 0
        for x in input {
            if let d = eightStages(x) { sum &+= d }
        }
        return sum
    }

    /// The 16-stage chain's stages: the 8-stage chain's, then eight more.
    @inline(__always)
    static func sixteenStages(_ x: Int) -> Int? {
        guard let d = eightStages(x) else { return nil }
        let e = d &+ 7
        guard e % 5 != 0 else { return nil }
        let f = e &* 5
        guard f & 2 == 0 else { return nil }
        let g = f &- 11
        guard g > 20 else { return nil }
        let h = g ^ 6
        guard h != 1000 else { return nil }
        return h
    }

    @inline(never)
    static func sixteenStage(_ input: [Int]) -> Int {
        var sum = 0
        for x in input {
            if let h = sixteenStages(x) { sum &+= h }
        }
        return sum
    }

    @inline(never)
    static func thirtyTwoStage(_ input: [Int]) -> Int {
        var sum = 0
        for x in input {
            guard let h = sixteenStages(x) else { continue }
            let i = h &+ 3
            guard i % 3 != 0 else { continue }
            let j = i &* 2
            guard j > 0 else { continue }
            let k = j &- 1
            guard k & 4 == 0 else { continue }
            let l = k ^ 3
            guard l != 77 else { continue }
            let m = l &+ 9
            guard m % 7 != 0 else { continue }
            let n = m &* 3
            guard n & 8 == 0 else { continue }
            let o = n &- 5
            guard o > 50 else { continue }
            let p = o ^ 2
            guard p != 5000 else { continue }
            sum &+= p
        }
        return sum
    }

    @inline(never)
    static func mixedStages(_ input: [Int]) -> Int {
        var sum = 0
        var dropping = true
        var total = 0
        var previous: Int?
        for x in input {
            guard x % 5 != 0 else { continue }
            let a = x &* 3
            if dropping {
                guard a >= 10 else { continue }
                dropping = false
            }
            total = (total &+ a) & 1023
            guard total != previous else { continue }
            previous = total
            guard total >= 0 else { break }
            guard total & 1 == 0 else { continue }
            sum &+= total ^ 1
        }
        return sum
    }

    @inline(never)
    static func justMapFilter(_ count: Int) -> Int {
        var sum = 0
        for i in 0..<count {
            let y = Stages.triple(i)
            if Stages.isEven(y) { sum &+= y }
        }
        return sum
    }

    /// A subject's fan-out as calls through an array of closures.
    @inline(never)
    static func subjectSend(_ values: Int, subscribers: Int) -> Int {
        final class Total {
            var sum = 0
        }
        let total = Total()
        let receivers: [(Int) -> Void] = (0..<subscribers).map { _ in { total.sum &+= $0 } }
        for i in 0..<values {
            for receive in receivers { receive(i) }
        }
        return total.sum
    }

    @inline(never)
    static func sum(_ input: [Int]) -> Int {
        var sum = 0
        for x in input { sum &+= x }
        return sum
    }

    @inline(never)
    static func tripledSum(_ input: [Int]) -> Int {
        var sum = 0
        for x in input { sum &+= x &* 3 }
        return sum
    }

    @inline(never)
    static func pairwiseSum(_ left: [Int], _ right: [Int]) -> Int {
        var sum = 0
        for (a, b) in zip(left, right) { sum &+= a &+ b }
        return sum
    }

    /// combineLatest of two sources sent alternately: every send after both have a value emits
    /// the pair of latest values.
    @inline(never)
    /// `sends` values round-robin into four slots; from the fourth on, the first slot's value is
    /// added at each send (`Collection.combineLatest()` of four subjects).
    static func combineLatestManySends(_ sends: Int) -> Int {
        var latest = [Int](repeating: 0, count: 4)
        var sum = 0
        for i in 0..<sends {
            latest[i & 3] = i
            if i >= 3 { sum &+= latest[0] }
        }
        return sum
    }

    static func combineLatestAlternating(_ sends: Int) -> Int {
        var left: Int?
        var right: Int?
        var sum = 0
        for i in 0..<sends {
            if i & 1 == 0 { left = i } else { right = i }
            if let left, let right { sum &+= left &+ right }
        }
        return sum
    }

    /// The floor for threads sending into one subject (23) or into merged subjects (24): each value
    /// is a call of every receiver's closure under one `Mutex` (the standard library's).
    @inline(never)
    static func lockedSends(_ values: Int, threads: Int, subscribers: Int) -> Int {
        final class Receivers: Sendable {
            let totals: Mutex<[Int]>
            init(_ count: Int) { totals = Mutex([Int](repeating: 0, count: count)) }
        }
        let receivers = Receivers(subscribers)
        let calls: [@Sendable (inout [Int], Int) -> Void] = (0..<subscribers).map { index in
            { totals, value in totals[index] &+= value }
        }
        ScenariosSluice.onThreads(threads) { index in
            for value in stride(from: index, to: values, by: threads) {
                receivers.totals.withLock { totals in for call in calls { call(&totals, value) } }
            }
        }
        return receivers.totals.withLock { $0.reduce(0, &+) }
    }

    /// The floor for `receive(on:)`: one `DispatchQueue.async` per value, then a barrier; from the
    /// calling thread or, with more than one producer, from `producers` threads at once (25).
    @inline(never)
    static func asyncPerValue(_ values: Int, queue: DispatchQueue, producers: Int = 1) -> Int {
        final class Total: @unchecked Sendable {
            var sum = 0  // touched only on `queue`
        }
        let total = Total()
        if producers == 1 {
            for i in 0..<values { queue.async { total.sum &+= i } }
        } else {
            ScenariosSluice.onThreads(producers) { index in
                for value in stride(from: index, to: values, by: producers) { queue.async { total.sum &+= value } }
            }
        }
        return queue.sync { total.sum }
    }
}
