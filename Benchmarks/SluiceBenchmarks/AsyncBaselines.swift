// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import ScenariosSluice

/// The same scenarios on the standard library's AsyncSequence, where they mean something.
/// Each runs its async body to completion on a fresh task and waits for it.
enum AsyncBaselines {
    /// An array as an AsyncSequence (the standard library has no such adapter).
    struct AsyncArray: AsyncSequence, Sendable {
        typealias Element = Int
        let elements: [Int]

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: IndexingIterator<[Int]>
            mutating func next() async -> Int? { base.next() }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: elements.makeIterator()) }
    }

    /// Runs `body` on a task and blocks until it returns.
    static func blocking(_ body: @escaping @Sendable () async -> Int) -> Int {
        final class Box: @unchecked Sendable {
            var value = 0
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value
    }

    static func mapFilter(_ input: [Int]) -> Int {
        blocking {
            var sum = 0
            for await y in AsyncArray(elements: input).map(Stages.triple).filter(Stages.isEven) { sum &+= y }
            return sum
        }
    }

    static func eightStage(_ input: [Int]) -> Int {
        blocking {
            let first = AsyncArray(elements: input).map { $0 &+ 1 }.filter { $0 & 7 != 0 }
            let second = first.map { $0 &* 3 }.filter { $0 & 1 == 0 }
            let third = second.map { $0 &- 2 }.filter { $0 > 5 }
            var sum = 0
            for await d in third.map({ $0 ^ 1 }).filter({ $0 != 100 }) { sum &+= d }
            return sum
        }
    }

    /// Sums `input` through an `AsyncStream` filled up front (unbounded buffer).
    static func streamOf(_ input: [Int]) -> Int {
        blocking {
            let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
            for value in input { continuation.yield(value) }
            continuation.finish()
            var sum = 0
            for await value in stream { sum &+= value }
            return sum
        }
    }

    static func reduce(_ input: [Int]) -> Int {
        blocking { await AsyncArray(elements: input).reduce(0, &+) }
    }

    /// One producer yields into one AsyncStream per consumer; each consumer sums what it gets.
    static func streamSend(_ values: Int, consumers: Int) -> Int {
        blocking {
            await withTaskGroup(of: Int.self) { group in
                var continuations: [AsyncStream<Int>.Continuation] = []
                for _ in 0..<consumers {
                    let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
                    continuations.append(continuation)
                    group.addTask {
                        var sum = 0
                        for await value in stream { sum &+= value }
                        return sum
                    }
                }
                for i in 0..<values {
                    for continuation in continuations { continuation.yield(i) }
                }
                for continuation in continuations { continuation.finish() }
                var total = 0
                for await partial in group { total &+= partial }
                return total
            }
        }
    }
}
