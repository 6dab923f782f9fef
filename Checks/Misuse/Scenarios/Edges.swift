// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

/// Demand arithmetic at its edges: saturating at `.unlimited` above and at `.none` below (Apple:
/// "A negative demand is impossible; ... Combine adjusts the value to `.max(0)`"), never a trap.
func demandArithmetic() -> [MisuseScenario] {
    typealias Demand = Subscribers.Demand
    return [
        MisuseScenario("demand: Int.max and overflow saturate at .unlimited", .clean) {
            MisuseCheck.expect(Demand.max(Int.max) + 1 == .unlimited, "max(Int.max) + 1")
            MisuseCheck.expect(Demand.max(Int.max) + .max(Int.max) == .unlimited, "max(Int.max) + max(Int.max)")
            MisuseCheck.expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited, "a product past Int.max")
            MisuseCheck.expect(Demand.max(3) * Int.max == .unlimited, "max(3) * Int.max")
            MisuseCheck.expect(Demand.unlimited + Int.min == .unlimited, ".unlimited + Int.min")
            MisuseCheck.expect(Demand.max(Int.max) == Int.max, "max(Int.max) is a count")
        },
        MisuseScenario("demand: below zero is .none", .clean) {
            MisuseCheck.expect(Demand.max(1) - .max(2) == .none, "max(1) - max(2)")
            MisuseCheck.expect(Demand.max(1) - 2 == .none, "max(1) - 2")
            MisuseCheck.expect(Demand.max(0) - Int.max == .none, "max(0) - Int.max")
            MisuseCheck.expect(Demand.max(1) + Int.min == .none, "max(1) + Int.min")
            var demand = Demand.max(2)
            demand -= 3
            MisuseCheck.expect(demand == .none, "-= 3")
            demand = .max(2)
            demand -= .max(3)
            MisuseCheck.expect(demand == .none, "-= max(3)")
            MisuseCheck.expect(Demand.max(Int.max) - (-1) == .none, "max(Int.max) - (-1), as Combine")
            MisuseCheck.expect(Demand.unlimited - .unlimited == .unlimited, ".unlimited - .unlimited")
            MisuseCheck.expect(Demand.max(5) - .unlimited == .none, "max(5) - .unlimited")
        },
    ]
}

/// Collects what a pipeline delivers on another thread or a run loop.
final class Inbox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private var finished = false

    func add(_ value: Value) { lock.withLock { values.append(value) } }
    func finish() { lock.withLock { finished = true } }
    var count: Int { lock.withLock { values.count } }
    var isFinished: Bool { lock.withLock { finished } }
}

/// A scheduler and how to wait on it: the run loop must be run by the waiting thread.
struct SchedulerUnderTest<S: Scheduler> {
    let name: String
    let make: () -> S
    let wait: (String, () -> Bool) -> Void
}

/// Negative and zero intervals on every scheduler and operator that takes one: an interval computed
/// as "deadline minus now" is negative in real code all the time. Each runs as soon as possible; a
/// repeating interval is clamped to a minimum; nothing traps.
func negativeIntervals() -> [MisuseScenario] {
    let eventually: (String, () -> Bool) -> Void = { message, condition in MisuseCheck.eventually(message, condition) }
    let dispatch = SchedulerUnderTest<DispatchQueue>(
        name: "DispatchQueue", make: { DispatchQueue(label: "misuse") }, wait: eventually)
    // Concurrent schedulers too: the actions `delay` schedules for a value and for the completion
    // at the same instant may run in either order, or at once; the operator keeps the order.
    let concurrentDispatch = SchedulerUnderTest<DispatchQueue>(
        name: "concurrent DispatchQueue", make: { DispatchQueue(label: "misuse", attributes: .concurrent) },
        wait: eventually)
    let global = SchedulerUnderTest<DispatchQueue>(
        name: "DispatchQueue.global()", make: { DispatchQueue.global() }, wait: eventually)
    let operations = SchedulerUnderTest<OperationQueue>(
        name: "OperationQueue", make: { operationQueue(running: 1) }, wait: eventually)
    let concurrentOperations = SchedulerUnderTest<OperationQueue>(
        name: "OperationQueue(4)", make: { operationQueue(running: 4) }, wait: eventually)
    let runLoop = SchedulerUnderTest<RunLoop>(
        name: "RunLoop", make: { RunLoop.current },
        wait: { message, condition in MisuseCheck.runLoop(message, until: condition) })
    var scenarios =
        intervals(on: dispatch) + intervals(on: concurrentDispatch) + intervals(on: global)
        + intervals(on: operations) + intervals(on: concurrentOperations) + intervals(on: runLoop)
    scenarios.append(
        MisuseScenario("Timer.publish(every: -1) on a RunLoop", .clean) {
            let inbox = Inbox<Date>()
            let cancellable = Timer.publish(every: -1, on: .current, in: .default).autoconnect()
                .sink { inbox.add($0) }
            MisuseCheck.runLoop("three ticks", until: { inbox.count >= 3 })
            cancellable.cancel()
        })
    return scenarios
}

/// An operation queue that runs up to `count` operations at once.
private func operationQueue(running count: Int) -> OperationQueue {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = count
    return queue
}

private func intervals<S: Scheduler>(on scheduler: SchedulerUnderTest<S>) -> [MisuseScenario] {
    let name = scheduler.name
    let minusOne = S.SchedulerTimeType.Stride.seconds(-1)
    return [
        MisuseScenario("\(name): schedule(after:interval: -1) repeats", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            let cancellable = s.schedule(after: s.now, interval: minusOne) { inbox.add(1) }
            scheduler.wait("three repetitions") { inbox.count >= 3 }
            cancellable.cancel()
        },
        MisuseScenario("\(name): schedule(after: the past) runs", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            s.schedule(after: s.now.advanced(by: minusOne)) { inbox.add(1) }
            scheduler.wait("the action") { inbox.count == 1 }
        },
        MisuseScenario("\(name): timeout(-1)", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            let cancellable = PassthroughSubject<Int, Never>().timeout(minusOne, scheduler: s)
                .sink(receiveCompletion: { _ in inbox.finish() }, receiveValue: { inbox.add($0) })
            scheduler.wait("the timeout's completion") { inbox.isFinished }
            cancellable.cancel()
        },
        MisuseScenario("\(name): collect(.byTime(-1))", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<[Int]>()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.collect(.byTime(s, minusOne)).sink { inbox.add($0) }
            subject.send(1)
            scheduler.wait("a window") { inbox.count >= 1 }
            cancellable.cancel()
        },
        MisuseScenario("\(name): collect(.byTimeOrCount(-1, 5))", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<[Int]>()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.collect(.byTimeOrCount(s, minusOne, 5)).sink { inbox.add($0) }
            subject.send(1)
            scheduler.wait("a window") { inbox.count >= 1 }
            cancellable.cancel()
        },
        MisuseScenario("\(name): delay(-1)", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            let cancellable = Just(1).delay(for: minusOne, scheduler: s)
                .sink(receiveCompletion: { _ in inbox.finish() }, receiveValue: { inbox.add($0) })
            scheduler.wait("the value and the completion") { inbox.count == 1 && inbox.isFinished }
            cancellable.cancel()
        },
        MisuseScenario("\(name): debounce(-1)", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.debounce(for: minusOne, scheduler: s).sink { inbox.add($0) }
            subject.send(1)
            scheduler.wait("the value") { inbox.count == 1 }
            cancellable.cancel()
        },
        MisuseScenario("\(name): throttle(-1)", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<Int>()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.throttle(for: minusOne, scheduler: s, latest: true).sink { inbox.add($0) }
            subject.send(1)
            scheduler.wait("the value") { inbox.count == 1 }
            cancellable.cancel()
        },
        MisuseScenario("\(name): measureInterval", .clean) {
            let s = scheduler.make()
            let inbox = Inbox<S.SchedulerTimeType.Stride>()
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.measureInterval(using: s).sink { inbox.add($0) }
            subject.send(1)
            subject.send(2)
            scheduler.wait("two intervals") { inbox.count == 2 }
            cancellable.cancel()
        },
    ]
}
