// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The virtual-time scheduler every timing test stands on (SluiceTesting, compiled against each
/// implementation's `Scheduler`).
@Suite struct TestSchedulerTests {
    /// A log of (instant in ms, label) pairs written by scheduled actions.
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        func add(_ scheduler: VirtualTimeScheduler, _ label: String) {
            entries.append("\(scheduler.now.nanoseconds / 1_000_000):\(label)")
        }
    }

    @Test func actionsRunInOrderOfInstantThenOfScheduling() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(20))) { log.add(scheduler, "c") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.add(scheduler, "a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) { log.add(scheduler, "b") }
        scheduler.schedule { log.add(scheduler, "now") }
        #expect(log.entries.isEmpty)
        scheduler.advance(by: .milliseconds(15))
        #expect(log.entries == ["0:now", "10:a", "10:b"])
        #expect(scheduler.now == VirtualTime(nanoseconds: 15_000_000))
        scheduler.advance(by: .milliseconds(5))
        #expect(log.entries == ["0:now", "10:a", "10:b", "20:c"])
        #expect(scheduler.pendingCount == 0)
    }

    /// `.shuffled(seed:)` runs the actions due at one instant in an order drawn from the seed, as a
    /// concurrent scheduler may; instants still come in order.
    @Test func aShuffledSchedulerRunsSameInstantActionsInASeededOrder() {
        func order(seed: UInt64) -> [String] {
            let scheduler = VirtualTimeScheduler(sameInstantOrder: .shuffled(seed: seed))
            let log = Log()
            for label in ["a", "b", "c", "d", "e", "f"] { scheduler.schedule { log.add(scheduler, label) } }
            scheduler.schedule(after: .zero.advanced(by: .milliseconds(5))) { log.add(scheduler, "later") }
            scheduler.advance(by: .milliseconds(10))
            return log.entries
        }
        let orders = (1...8 as ClosedRange<UInt64>).map(order(seed:))
        #expect(
            orders.allSatisfy {
                Set($0.dropLast()) == ["0:a", "0:b", "0:c", "0:d", "0:e", "0:f"] && $0.last == "5:later"
            })
        #expect(Set(orders).count > 1, "eight seeds, one order")
        #expect(order(seed: 3) == order(seed: 3))
    }

    /// On such a scheduler, the operators that hop keep the order of what they deliver (issue 54).
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func hoppingOperatorsKeepTheirOrderWhenSameInstantActionsRunShuffled(seed: UInt64) {
        let scheduler = VirtualTimeScheduler(sameInstantOrder: .shuffled(seed: seed))
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let cancellable = subject.receive(on: scheduler).delay(for: .milliseconds(1), scheduler: scheduler)
            .receive(on: scheduler)
            .sink(receiveCompletion: { received.append("\($0)") }, receiveValue: { received.append("\($0)") })
        for value in 1...10 { subject.send(value) }
        subject.send(completion: .finished)
        scheduler.advance(by: .milliseconds(5))
        #expect(received == (1...10).map { "\($0)" } + ["finished"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func actionsScheduledByActionsRunInTheSameAdvance() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.schedule(after: .zero.advanced(by: .seconds(1))) {
            log.add(scheduler, "outer")
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(500))) { log.add(scheduler, "inner") }
            scheduler.schedule { log.add(scheduler, "asap") }
        }
        scheduler.advance(by: .seconds(2))
        #expect(log.entries == ["1000:outer", "1000:asap", "1500:inner"])
        #expect(scheduler.now == .zero.advanced(by: .seconds(2)))
    }

    @Test func repeatingActionsRunEveryIntervalUntilCancelled() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        let token = scheduler.schedule(after: .zero.advanced(by: .milliseconds(100)), interval: .milliseconds(100)) {
            log.add(scheduler, "tick")
        }
        scheduler.advance(by: .milliseconds(350))
        #expect(log.entries == ["100:tick", "200:tick", "300:tick"])
        token.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(log.entries.count == 3)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func runDrainsEverythingAndMovesTheClockToTheLastAction() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.schedule(after: .zero.advanced(by: .seconds(5))) { log.add(scheduler, "late") }
        scheduler.schedule(after: .zero.advanced(by: .seconds(1))) { log.add(scheduler, "early") }
        scheduler.run()
        #expect(log.entries == ["1000:early", "5000:late"])
        #expect(scheduler.now == .zero.advanced(by: .seconds(5)))
    }

    @Test func aPastDateRunsAtTheCurrentInstantAndTheClockNeverGoesBack() {
        let scheduler = VirtualTimeScheduler()
        let log = Log()
        scheduler.advance(by: .seconds(3))
        scheduler.schedule(after: .zero.advanced(by: .seconds(1))) { log.add(scheduler, "past") }
        scheduler.advance(to: .zero.advanced(by: .seconds(2)))
        #expect(log.entries == ["3000:past"])
        #expect(scheduler.now == .zero.advanced(by: .seconds(3)))
    }

    @Test func strideConversionsAndLiterals() {
        typealias Stride = VirtualTime.Stride
        #expect(Stride.seconds(2).nanoseconds == 2_000_000_000)
        #expect(Stride.seconds(1.5).nanoseconds == 1_500_000_000)
        #expect(Stride.milliseconds(3).nanoseconds == 3_000_000)
        #expect(Stride.microseconds(4).nanoseconds == 4_000)
        #expect(Stride.nanoseconds(5).nanoseconds == 5)
        #expect((2 as Stride) == .seconds(2))
        #expect((0.25 as Stride) == .milliseconds(250))
        #expect(Stride.seconds(Int.max).nanoseconds == .max)
        #expect(VirtualTime.zero.distance(to: VirtualTime(nanoseconds: 7)) == .nanoseconds(7))
        #expect(VirtualTime(nanoseconds: 7).distance(to: .zero) == .nanoseconds(-7))
    }

    @Test func sendsFromSeveralThreadsAreAllQueued() async {
        let scheduler = VirtualTimeScheduler()
        let counter = Log()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250 { scheduler.schedule { counter.entries.append("x") } }
                }
            }
        }
        #expect(scheduler.pendingCount == 1000)
        scheduler.advance()
        #expect(counter.entries.count == 1000)
    }
}
