// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

/// `debounce(for:scheduler:options:)`, on virtual time. Instants in the logs are milliseconds.
///
/// Combine's behaviour (from tests run against Apple's Combine): upstream is asked for unlimited
/// demand at subscription; each value restarts the timer; the value is delivered on the scheduler
/// once `dueTime` has passed without a newer one, if downstream has demand (otherwise dropped); a
/// completion is delivered on the scheduler as soon as possible and drops a value still waiting.
@Suite struct DebounceTests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        _ dueTime: VirtualTime.Stride = .milliseconds(13), initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> (Upstream, VirtualTimeScheduler, InstantRecorder<Int, TestError>) {
        let upstream = Upstream()
        let scheduler = VirtualTimeScheduler()
        let recorder = upstream.debounce(for: dueTime, scheduler: scheduler)
            .recordInstants(on: scheduler, initialDemand: initialDemand, demandPerValue: demandPerValue)
        return (upstream, scheduler, recorder)
    }

    @Test func publisherKeepsItsParameters() {
        let scheduler = VirtualTimeScheduler()
        let debounce = Publishers.Debounce(
            upstream: Just(1), dueTime: .milliseconds(5), scheduler: scheduler, options: nil)
        #expect(debounce.dueTime == .milliseconds(5))
        #expect(debounce.scheduler === scheduler)
        #expect(debounce.options == nil)
        #expect(debounce.upstream.output == 1)
    }

    @Test func emitsTheLastValueAfterDueTimeOfSilence() {
        let (upstream, scheduler, recorder) = make()
        #expect(recorder.log == ["0:subscription"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(4)))
        upstream.send(2)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(9)))
        upstream.send(3)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(21)))
        #expect(recorder.events == [], "9 + 13 = 22: not yet")
        scheduler.advance(to: .zero.advanced(by: .milliseconds(22)))
        #expect(recorder.events == ["22:3"])
        scheduler.advance(to: .zero.advanced(by: .milliseconds(30)))
        upstream.send(4)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(100)))
        upstream.send(completion: .finished)
        #expect(recorder.events == ["22:3", "43:4"], "the completion is delivered on the scheduler, not at once")
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["22:3", "43:4", "100:finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(scheduler.pendingCount == 0, "no timer left behind")
    }

    /// Values every 100 ms, a pause, a burst, a pause; one frame is 50 ms, the due time 250 ms.
    @Test func marbleBurstsCollapseToTheirLastValue() {
        let scheduler = VirtualTimeScheduler()
        let recorder = TestablePublisher<Character, TestError>(
            .cold, "1-2-3-------4-----5-6-7", frame: .milliseconds(50), on: scheduler
        )
        .debounce(for: .milliseconds(250), scheduler: scheduler)
        .recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram(frame: .milliseconds(50)) == "---------3-------4---------7")
    }

    /// The book's username example: typing "Merlin", deleting the n and typing it again within the
    /// window gives "Merlin" once; behind `removeDuplicates` the second window's "Merlin" is dropped.
    @Test func merlinWithRemoveDuplicates() {
        let subject = PassthroughSubject<String, Never>()
        let scheduler = VirtualTimeScheduler()
        let recorder = subject.debounce(for: .milliseconds(500), scheduler: scheduler).removeDuplicates()
            .recordInstants(on: scheduler)
        let typing = [
            (0, "M"), (100, "Me"), (200, "Mer"), (300, "Merl"), (400, "Merli"), (500, "Merlin"),
            (2000, "Merli"), (2100, "Merlin"),
        ]
        for (instant, text) in typing {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(instant)))
            subject.send(text)
        }
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == ["1000:Merlin"])
    }

    @Test func finishingDropsThePendingValue() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(4)))
        upstream.send(completion: .finished)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(100)))
        #expect(recorder.events == ["4:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func failingDropsThePendingValue() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(4)))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [])
        scheduler.advance(to: .zero.advanced(by: .milliseconds(100)))
        #expect(recorder.events == ["4:failure(oops)"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func withoutDemandTheValueIsDroppedNotKept() {
        let (upstream, scheduler, recorder) = make(initialDemand: nil)
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(100)))
        #expect(recorder.events == [])
        recorder.request(.max(3))
        scheduler.advance(to: .zero.advanced(by: .milliseconds(200)))
        #expect(recorder.events == [], "a dropped value does not come back on request")
        for (instant, value) in [(200, 2), (250, 3), (300, 4), (350, 5)] {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(instant)))
            upstream.send(value)
        }
        scheduler.advance(to: .zero.advanced(by: .milliseconds(400)))
        #expect(recorder.events == ["213:2", "263:3", "313:4"], "three requested, the fourth dropped")
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "downstream demand never goes upstream")
    }

    @Test func demandReturnedFromReceiveCounts() {
        let (upstream, scheduler, recorder) = make(initialDemand: .max(1), demandPerValue: .max(1))
        for instant in [0, 100, 200] {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(instant)))
            upstream.send(instant)
        }
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["13:0", "113:100", "213:200"])
    }

    @Test func cancelStopsThePendingDeliveryAndReachesUpstream() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(4)))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0, "the timer is cancelled")
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func cancelAfterUpstreamCompletedStopsTheScheduledCompletion() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "a finished upstream is not cancelled")
    }

    @Test func cancelFromInsideReceive() {
        let (upstream, scheduler, recorder) = make()
        recorder.onValue = { _ in recorder.cancel() }
        upstream.send(1)
        scheduler.advance(by: .milliseconds(20))
        upstream.sendKeepingSubscriber(2)
        scheduler.advance(by: .milliseconds(20))
        #expect(recorder.events == ["13:1"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func requestFromInsideReceive() {
        let (upstream, scheduler, recorder) = make(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        for instant in [0, 50, 100] {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(instant)))
            upstream.send(instant)
        }
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["13:0", "63:50", "113:100"])
    }

    @Test func sendingFromInsideReceiveStartsANewWindow() {
        let (upstream, scheduler, recorder) = make()
        recorder.onValue = { value in if value < 3 { upstream.send(value + 1) } }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["13:1", "26:2", "39:3"])
    }

    @Test func nothingAfterCompletion() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        scheduler.advance(by: .milliseconds(20))
        upstream.sendKeepingSubscriber(completion: .finished)
        scheduler.advance(by: .zero)
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["13:1", "20:finished"])
    }

    @Test func zeroDueTimeDeliversAtTheSameInstantOnTheScheduler() {
        let (upstream, scheduler, recorder) = make(.zero)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(7)))
        upstream.send(1)
        #expect(recorder.events == [], "on the scheduler, not synchronously")
        upstream.send(2)
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["7:2"])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (upstream, _, _) = make()
        let other = TestPublisher<Int, TestError>()
        upstream.lastSubscriber?.receive(subscription: TestPublisher.TestSubscription(owner: other))
        #expect(other.events == [.cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func describesItselfAsDebounce() {
        let (_, _, recorder) = make()
        #expect(recorder.subscriptionDescription == "Debounce")
    }

    /// Combine's scheduling: per value a repeating timer (interval = due time, the scheduler's
    /// minimum tolerance, the operator's options), replaced timers cancelled; the completion with
    /// `schedule(options: nil)`.
    @Test func schedulesARepeatingTimerPerValueAndTheCompletionAsSoonAsPossible() {
        let upstream = Upstream()
        let scheduler = RecordingScheduler()
        let recorder = upstream.debounce(for: .milliseconds(13), scheduler: scheduler, options: 5)
            .recordInstants(on: scheduler)
        #expect(scheduler.calls == [])
        upstream.send(1)
        scheduler.advance(to: 4)
        upstream.send(2)
        scheduler.advance(to: 30)
        upstream.send(completion: .finished)
        scheduler.advance(to: 40)
        #expect(recorder.events == ["17:2", "30:finished"])
        #expect(
            scheduler.calls == [
                "every 13 interval:13 tolerance:7 options:5",
                "every 17 interval:13 tolerance:7 options:5",
                "asap options:nil",
            ])
        #expect(scheduler.base.pendingCount == 0, "every timer was cancelled")
    }

    /// With timers the scheduler cannot cancel, each still delivers only the value it was started
    /// for, and only if nothing newer came in.
    @Test func timersTheSchedulerCannotCancelDeliverNothingStale() {
        let upstream = Upstream()
        let scheduler = RecordingScheduler(honoursCancel: false)
        let recorder = upstream.debounce(for: .milliseconds(13), scheduler: scheduler).recordInstants(on: scheduler)
        for (instant, value) in [(0, 1), (2, 2), (4, 3), (6, 42)] {
            scheduler.advance(to: instant)
            upstream.send(value)
        }
        scheduler.advance(to: 50)
        #expect(recorder.events == ["19:42"])
        upstream.send(1)
        scheduler.advance(to: 54)
        recorder.cancel()
        scheduler.advance(to: 100)
        #expect(recorder.events == ["19:42"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    /// One thread sends 1...n into a subject while another advances the clock: whatever the
    /// interleaving, deliveries never overlap, only increase, and the last value is delivered last.
    @Test func valuesFromOneThreadClockFromAnother() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let scheduler = VirtualTimeScheduler()
            let recorder = ThreadedTimingRecorder<Int, Never>()
            subject.debounce(for: .microseconds(50), scheduler: scheduler).subscribe(recorder)
            let done = Atomic<Bool>(false)
            let box = UncheckedBox(value: subject)
            let sender = onAnotherThread {
                for value in 1...2_000 { box.value.send(value) }
                done.store(true, ordering: .releasing)
            }
            let clock = onAnotherThread {
                while !done.load(ordering: .acquiring) { scheduler.advance(by: .microseconds(10)) }
            }
            sender.wait()
            clock.wait()
            scheduler.advance(by: .milliseconds(1))
            subject.send(completion: .finished)
            scheduler.advance(by: .milliseconds(1))
            let values = recorder.values
            #expect(values.last == 2_000)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "\(values)")
            #expect(recorder.completionCount == 1)
            #expect(recorder.afterCompletion == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        }
    }
}
