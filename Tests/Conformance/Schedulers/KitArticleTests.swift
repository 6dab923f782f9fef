// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The examples of SluiceTesting's DocC articles (Sources/SluiceTesting/SluiceTesting.docc) that
/// MarbleKitTests does not already run (hot and cold playing, the ledger, values beyond demand
/// and the difference are there), so that what the articles say the kit does is what it does.
@Suite struct KitArticleTests {
    let ms = { (n: Int) in VirtualTime(nanoseconds: n * 1_000_000) }

    @Test func debounceOnAHotPublisher() {
        let scheduler = VirtualTimeScheduler()
        let typed = TestablePublisher<Character, Never>(.hot, "-ab---c---|", on: scheduler)
        let recorder = typed.debounce(for: .milliseconds(2), scheduler: scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram() == "----b---c-|")
    }

    @Test func delayShiftsWhatALateSubscriberSees() {
        let scheduler = VirtualTimeScheduler()
        let hot = TestablePublisher<Character, Never>(.hot, "-a--b--c|", on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let recorder = hot.delay(for: .milliseconds(2), scheduler: scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram() == "------b--c|")
    }

    @Test func collectKeepsToDemand() {
        let scheduler = VirtualTimeScheduler()
        let source = TestablePublisher<Character, Never>(.cold, "abcde|", on: scheduler)
        let recorder = source.collect(2).recordTimeline(on: scheduler, demand: .oneByOne)
        scheduler.run()
        #expect(recorder.values == [["a", "b"], ["c", "d"], ["e"]])
        #expect(recorder.valuesBeyondDemand == 0)
        #expect(source.ledgers == [[.subscribed(.zero), .requested(.max(2), .zero)]])
    }

    @Test func collectAsksForNoMoreThanOneArray() {
        let scheduler = VirtualTimeScheduler()
        let source = TestablePublisher<Character, Never>(.cold, "abcde|", on: scheduler)
        let recorder = source.collect(2).recordTimeline(on: scheduler, demand: DemandScript(initial: .max(1)))
        scheduler.run()
        #expect(recorder.values == [["a", "b"]])
        #expect(recorder.valuesBeyondDemand == 0)
        #expect(
            source.ledgers == [
                [
                    .subscribed(ms(0)), .requested(.max(2), ms(0)), .overflowed(ms(2)), .overflowed(ms(3)),
                    .overflowed(ms(4)),
                ]
            ])
    }

    @Test func mapAndCollectKeepToDemand() {
        func overflowsAndExcess<P: Publisher>(
            _ diagram: String, _ make: (TestablePublisher<Character, Never>) -> P
        ) -> (overflows: Int, beyondDemand: Int) where P.Failure == Never {
            let scheduler = VirtualTimeScheduler()
            let source = TestablePublisher<Character, Never>(.cold, diagram, on: scheduler)
            let recorder = make(source).recordTimeline(on: scheduler, demand: .oneByOne)
            scheduler.run()
            let overflows = source.ledgers.flatMap { $0 }.filter { if case .overflowed = $0 { true } else { false } }
            return (overflows.count, recorder.valuesBeyondDemand)
        }
        #expect(overflowsAndExcess("a-b-c|") { $0.map { $0 } } == (0, 0))
        #expect(overflowsAndExcess("abcde|") { $0.collect(2) } == (0, 0))
        let buffered = overflowsAndExcess("abcde|") { $0.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest) }
        #expect(buffered.beyondDemand == 0)
    }
}
