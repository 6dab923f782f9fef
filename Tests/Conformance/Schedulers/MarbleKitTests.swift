// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// The test kit's marble diagrams, testable publishers (with their demand ledgers) and timeline
/// recorder.
@Suite struct MarbleKitTests {
    @Test func aDiagramParsesIntoFramedEventsAndDrawsBack() {
        let events: [(frame: Int, event: TimelineEvent<Character, TestError>)] = Marbles.parse(
            "-a-(bc)--#", failure: .oops)
        #expect(events.map(\.frame) == [1, 3, 3, 6])
        #expect(events.map(\.event) == [.value("a"), .value("b"), .value("c"), .failure(.oops)])
        let timed = events.map { TimedEvent(VirtualTime(nanoseconds: $0.frame * 1_000_000), $0.event) }
        #expect(Marbles.diagram(timed, frame: .milliseconds(1)) { $0 } == "-a-(bc)--#")
    }

    @Test func valuesComeFromATable() {
        let events = Marbles.parse("a b |", values: ["a": 10, "b": 20], failure: TestError.oops)
        #expect(events.map(\.event) == [.value(10), .value(20), .finished])
        #expect(events.map(\.frame) == [0, 1, 2], "spaces take no time")
    }

    @Test func aColdPublisherPlaysItsScriptForEachSubscriberFromItsSubscription() {
        let scheduler = VirtualTimeScheduler()
        let cold = TestablePublisher<Character, TestError>(.cold, "-a-b|", on: scheduler)
        let first = cold.recordTimeline(on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let second = cold.recordTimeline(on: scheduler)
        scheduler.run()
        #expect(first.diagram() == "-a-b|")
        #expect(second.diagram(start: VirtualTime(nanoseconds: 2_000_000)) == "-a-b|")
        #expect(second.diagram() == "---a-b|")
    }

    @Test func aHotPublisherPlaysOnceAndALateSubscriberSeesTheRest() {
        let scheduler = VirtualTimeScheduler()
        let hot = TestablePublisher<Character, TestError>(.hot, "-a-b-c|", on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let late = hot.recordTimeline(on: scheduler)
        scheduler.run()
        #expect(late.diagram() == "---b-c|")
    }

    @Test func theLedgerShowsTheDemandTrafficAndWhatDemandWasMissing() {
        let scheduler = VirtualTimeScheduler()
        let cold = TestablePublisher<Character, TestError>(.cold, "abc-d|", on: scheduler)
        let recorder = cold.recordTimeline(on: scheduler, demand: DemandScript(initial: .max(1)))
        scheduler.advance(by: .milliseconds(3))
        recorder.request(.max(1))
        scheduler.advance(by: .milliseconds(1))
        recorder.cancel()
        scheduler.run()
        let ms = { VirtualTime(nanoseconds: $0 * 1_000_000) }
        #expect(
            cold.ledgers == [
                [
                    .subscribed(ms(0)), .requested(.max(1), ms(0)), .overflowed(ms(1)), .overflowed(ms(2)),
                    .requested(.max(1), ms(3)), .cancelled(ms(4)),
                ]
            ])
        #expect(recorder.diagram() == "a---d")
        #expect(recorder.valuesBeyondDemand == 0)
    }

    @Test func theRecorderNoticesAValueBeyondItsDemand() {
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = TimelineRecorder<Int, Never>(scheduler: scheduler, demand: DemandScript(initial: .max(1)))
        let unruly = AnySubscriber<Int, Never>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { recorder.receive($0) }, receiveCompletion: { recorder.receive(completion: $0) })
        subject.subscribe(unruly)
        subject.send(1)
        _ = recorder.receive(2)  // as a publisher that ignores demand would
        #expect(recorder.values == [1, 2])
        #expect(recorder.valuesBeyondDemand == 1)
    }

    @Test func theDifferenceNamesEachEventThatDiffers() {
        let scheduler = VirtualTimeScheduler()
        let recorder = Just(1).recordTimeline(on: scheduler)
        #expect(
            recorder.difference(from: [
                TimedEvent(.zero, .subscription), TimedEvent(.zero, .value(1)), TimedEvent(.zero, .finished),
            ]) == nil)
        let difference = recorder.difference(from: [TimedEvent(.zero, .subscription), TimedEvent(.zero, .value(2))])
        #expect(
            difference == """
                  t=0ms subscription
                - t=0ms value(2)
                + t=0ms value(1)
                + t=0ms finished
                """)
    }
}

extension MarbleKitTests {
    /// The README's example, as it is written there.
    @Test func theReadmeExample() {
        let scheduler = VirtualTimeScheduler()
        let typed = TestablePublisher<Character, Never>(.cold, "-ab---c---|", on: scheduler)
        let recorder = typed.debounce(for: .milliseconds(2), scheduler: scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram() == "----b---c-|")
        #expect(typed.ledgers.map { $0.map(\.description) } == [["t=0ms subscribed", "t=0ms request(unlimited)"]])
    }
}

/// The timing operators, on marble diagrams: one frame is a millisecond of virtual time.
@Suite struct TimingMarbleTests {
    func run<P: Publisher>(_ build: (VirtualTimeScheduler) -> P) -> String where P.Output == Character {
        let scheduler = VirtualTimeScheduler()
        let recorder = build(scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        return recorder.diagram()
    }

    @Test func delayShiftsEveryEvent() {
        #expect(
            run { scheduler in
                TestablePublisher<Character, TestError>(.cold, "-a-b|", on: scheduler)
                    .delay(for: .milliseconds(2), scheduler: scheduler)
            } == "---a-b|")
    }

    @Test func debouncePublishesAValueOnceTheStreamHasBeenQuiet() {
        #expect(
            run { scheduler in
                TestablePublisher<Character, TestError>(.cold, "-ab---c---|", on: scheduler)
                    .debounce(for: .milliseconds(2), scheduler: scheduler)
            } == "----b---c-|")
    }

    @Test func timeoutFinishesAfterAQuietSpell() {
        #expect(
            run { scheduler in
                TestablePublisher<Character, TestError>(.cold, "-a-----b|", on: scheduler)
                    .timeout(.milliseconds(3), scheduler: scheduler)
            } == "-a--|")
    }

    @Test func throttleKeepsTheFirstOrTheLatestOfEachWindow() {
        let first = run { scheduler in
            TestablePublisher<Character, TestError>(.cold, "abc---de|", on: scheduler)
                .throttle(for: .milliseconds(3), scheduler: scheduler, latest: false)
        }
        let latest = run { scheduler in
            TestablePublisher<Character, TestError>(.cold, "abc---de|", on: scheduler)
                .throttle(for: .milliseconds(3), scheduler: scheduler, latest: true)
        }
        // A window counts from the last delivery; the completion follows the value still waiting.
        #expect(first == "a--b--d--(e|)")
        #expect(latest == "a--c--d--(e|)")
    }

    @Test func collectByTimePublishesEachWindowsValuesAndTheRestAtTheEnd() {
        // Windows of 4 ms from the subscription; the digit is how many values a window collected.
        // Empty windows (to 12 and 16) publish nothing; the completion at 18 ends the last one early.
        #expect(
            run { scheduler in
                TestablePublisher<Character, TestError>(.cold, "-a-b-c-----------d|", on: scheduler)
                    .collect(.byTime(scheduler, .milliseconds(4)))
                    .map { Character(String($0.count)) }
            } == "----2---1---------(1|)")
    }
}
