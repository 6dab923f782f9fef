// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Scenarios 8–13 (and 9b, 9c): combining operators and receive(on:), written once against the Combine API and
// compiled against each implementation like Scenarios.swift. OpenCombine 0.14.0 has no `merge` and
// no `combineLatest`: those scenarios are compiled only for Sluice and SluiceReference.
import Dispatch

#if SLUICE
import Sluice
#elseif SLUICE_REFERENCE
import SluiceReference
#elseif OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
#endif

// MARK: 8. flatMap { Just } (the scalar-inner fast path)

@inline(__always)
func flatMapJustSum<P: Publisher>(_ source: P) -> Int where P.Output == Int, P.Failure == Never {
    var sum = 0
    let token = source.flatMap { Just($0 &* 3) }.sink { sum &+= $0 }
    token.cancel()
    return sum
}

@inline(never)
public func flatMapJust(_ input: [Int]) -> Int { flatMapJustSum(input.publisher) }

// MARK: 8b. flatMap { Just } and switchToLatest over a subject (the unfused machines)

/// `values` values sent through a subject into `flatMap { Just }`: no cursor drives this chain, so
/// each value goes through flatMap's subscription and its one-shot inner publisher.
@inline(never)
public func flatMapJustSubject(_ values: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let token = subject.flatMap { Just($0 &* 3) }.sink { total.sum &+= $0 }
    for value in 0..<values { subject.send(value) }
    token.cancel()
    return total.sum
}

/// The same through `map { Just }.switchToLatest()`.
@inline(never)
public func switchToLatestJustSubject(_ values: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let token = subject.map { Just($0) }.switchToLatest().sink { total.sum &+= $0 }
    for value in 0..<values { subject.send(value) }
    token.cancel()
    return total.sum
}

// MARK: 9. merge of two synchronous sources

#if !OPENCOMBINE
@inline(never)
public func mergeTwo(_ left: [Int], _ right: [Int]) -> Int {
    var sum = 0
    let token = left.publisher.merge(with: right.publisher).sink { sum &+= $0 }
    token.cancel()
    return sum
}
#endif

// MARK: 9b. Publishers.Merge: two sources of two types (same-typed operands make a MergeMany)

#if !OPENCOMBINE
@inline(never)
public func mergeTwoTypes(_ left: [Int], _ right: [Int]) -> Int {
    var sum = 0
    let token = left.publisher.merge(with: right[...].publisher).sink { sum &+= $0 }
    token.cancel()
    return sum
}

// MARK: 9c. merge of eight sources (Merge8)

/// Merges the eight parts of `parts` (which must have eight).
@inline(never)
public func mergeEight(_ parts: [[Int]]) -> Int {
    var sum = 0
    let token = parts[0].publisher.merge(
        with: parts[1].publisher, parts[2].publisher, parts[3].publisher, parts[4].publisher, parts[5].publisher,
        parts[6].publisher, parts[7].publisher
    ).sink { sum &+= $0 }
    token.cancel()
    return sum
}
#endif

// MARK: 10. zip of two synchronous sources (at three sizes: linear or not)

@inline(never)
public func zipTwo(_ left: [Int], _ right: [Int]) -> Int {
    var sum = 0
    let token = left.publisher.zip(right.publisher).sink { sum &+= $0.0 &+ $0.1 }
    token.cancel()
    return sum
}

// MARK: 11. combineLatest of two subjects, sent alternately

#if !OPENCOMBINE
@inline(never)
public func combineLatestAlternating(_ sends: Int) -> Int {
    let left = PassthroughSubject<Int, Never>()
    let right = PassthroughSubject<Int, Never>()
    let total = Total()
    let token = left.combineLatest(right).sink { total.sum &+= $0.0 &+ $0.1 }
    for i in 0..<sends {
        if i & 1 == 0 { left.send(i) } else { right.send(i) }
    }
    token.cancel()
    return total.sum
}
#endif

// MARK: 12. switchToLatest over Just inners

@inline(never)
public func switchToLatestJust(_ input: [Int]) -> Int {
    var sum = 0
    let token = input.publisher.map { Just($0) }.switchToLatest().sink { sum &+= $0 }
    token.cancel()
    return sum
}

// MARK: 13. receive(on: DispatchQueue)

/// Sends `values` values through a subject delivered on `queue`, from the calling thread or, with
/// more than one producer, from `producers` threads at once (scenario 25, see Contention.swift);
/// returns their sum once the completion has arrived on the queue.
@inline(never)
public func receiveOnQueue(_ values: Int, queue: DispatchQueue, producers: Int = 1) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let finished = DispatchSemaphore(value: 0)
    let total = Total()
    #if OPENCOMBINE
    let scheduler = queue.ocombine
    #else
    let scheduler = queue
    #endif
    let token = subject.receive(on: scheduler).sink(
        receiveCompletion: { _ in finished.signal() },
        receiveValue: { total.sum &+= $0 })
    if producers == 1 {
        for i in 0..<values { subject.send(i) }
    } else {
        let shared = Shared(subject)
        onThreads(producers) { index in
            for value in stride(from: index, to: values, by: producers) { shared.value.send(value) }
        }
    }
    subject.send(completion: .finished)
    finished.wait()
    token.cancel()
    return total.sum
}

// MARK: 13r. receive(on:) and delay on a serial scheduler, on one thread

#if OPENCOMBINE
public typealias RunLoopTime = DispatchQueue.OCombine.SchedulerTimeType
#else
public typealias RunLoopTime = DispatchQueue.SchedulerTimeType
#endif

/// A serial scheduler on one thread, as a run loop is: `turn()` runs the actions that are due by
/// its clock, in the order of their due times (and of scheduling, for equal times). What a
/// `receive(on:)` or `delay` costs on a serial scheduler, without Dispatch's own cost and threads.
public final class RunLoopScheduler: Scheduler {
    public typealias SchedulerTimeType = RunLoopTime
    public typealias SchedulerOptions = Never

    private var clock: UInt64 = 1
    /// Due times are never earlier than the last one here (each is now or now plus one interval):
    /// a queue in scheduling order is in due order.
    private var actions: [(due: UInt64, action: () -> Void)] = []
    private var next = 0

    public init() { actions.reserveCapacity(16) }

    public var now: SchedulerTimeType { SchedulerTimeType(DispatchTime(uptimeNanoseconds: clock)) }
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: Never?, _ action: @escaping () -> Void) { actions.append((clock, action)) }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        actions.append((date.dispatchTime.uptimeNanoseconds, action))
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        fatalError("RunLoopScheduler does not repeat")
    }

    /// Moves the clock by `nanoseconds` and runs what is due.
    public func turn(advancingBy nanoseconds: UInt64 = 0) {
        clock += nanoseconds
        while next < actions.count, actions[next].due <= clock {
            let action = actions[next].action
            next += 1
            action()
        }
        if next == actions.count {
            actions.removeAll(keepingCapacity: true)
            next = 0
        }
    }
}

/// Sends `values` values through `receive(on:)` on a serial run loop, one turn per send, then the
/// completion: their sum once it has arrived.
@inline(never)
public func receiveOnRunLoop(_ values: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = RunLoopScheduler()
    let total = Total()
    let token = subject.receive(on: scheduler).sink(receiveCompletion: { _ in total.sum &+= 0 }) { total.sum &+= $0 }
    for value in 0..<values {
        subject.send(value)
        scheduler.turn()
    }
    subject.send(completion: .finished)
    scheduler.turn()
    token.cancel()
    return total.sum
}

/// The same through `delay(for: 1 ns)`, the clock moved one nanosecond per turn.
@inline(never)
public func delayOnRunLoop(_ values: Int) -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let scheduler = RunLoopScheduler()
    let total = Total()
    let token = subject.delay(for: .nanoseconds(1), scheduler: scheduler).sink(
        receiveCompletion: { _ in total.sum &+= 0 }) { total.sum &+= $0 }
    for value in 0..<values {
        subject.send(value)
        scheduler.turn(advancingBy: 1)
    }
    subject.send(completion: .finished)
    scheduler.turn(advancingBy: 1)
    token.cancel()
    return total.sum
}
