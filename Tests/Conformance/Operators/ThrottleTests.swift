// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

/// `throttle(for:scheduler:latest:)`, on virtual time. Instants in the logs are milliseconds.
///
/// Combine's behaviour (from tests run against Apple's Combine): upstream is asked for unlimited
/// demand at subscription. The first value is scheduled at once; after a delivery the next one is
/// scheduled for `interval` after it (or at once if that has passed). While a delivery waits, later
/// values replace its value (`latest: true`) or are ignored (`latest: false`). A value that finds
/// no delivery waiting and no downstream demand is dropped. A completion rides on a waiting
/// delivery, after its value, or is scheduled at once.
@Suite struct ThrottleTests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        _ interval: VirtualTime.Stride = .milliseconds(100), latest: Bool,
        initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> (Upstream, VirtualTimeScheduler, InstantRecorder<Int, TestError>) {
        let upstream = Upstream()
        let scheduler = VirtualTimeScheduler()
        let recorder = upstream.throttle(for: interval, scheduler: scheduler, latest: latest)
            .recordInstants(on: scheduler, initialDemand: initialDemand, demandPerValue: demandPerValue)
        return (upstream, scheduler, recorder)
    }

    private func send(_ sends: [(Int, Int)], to upstream: Upstream, on scheduler: VirtualTimeScheduler) {
        for (instant, value) in sends {
            scheduler.advance(to: .zero.advanced(by: .milliseconds(instant)))
            upstream.send(value)
        }
    }

    @Test func publisherKeepsItsParameters() {
        let scheduler = VirtualTimeScheduler()
        let throttle = Publishers.Throttle(
            upstream: Just(1), interval: .milliseconds(5), scheduler: scheduler, latest: true)
        #expect(throttle.interval == .milliseconds(5))
        #expect(throttle.scheduler === scheduler)
        #expect(throttle.latest)
        #expect(throttle.upstream.output == 1)
    }

    /// Interval 100 ms, one frame 10 ms; each window opens `interval` after a delivery. With
    /// `latest`, a window publishes its last value, without, its first.
    @Test func marbleLatestAndFirst() {
        func throttled(latest: Bool) -> String {
            let scheduler = VirtualTimeScheduler()
            let recorder = TestablePublisher<Character, TestError>(
                .cold, "123------------4-5----------------------6", frame: .milliseconds(10), on: scheduler
            )
            .throttle(for: .milliseconds(100), scheduler: scheduler, latest: latest)
            .recordTimeline(on: scheduler)
            scheduler.run()
            return recorder.diagram(frame: .milliseconds(10))
        }
        #expect(throttled(latest: true) == "1---------3---------5-------------------6")
        #expect(throttled(latest: false) == "1---------2---------4-------------------6")
    }

    @Test func upstreamIsAskedForEverythingAtOnce() {
        let (upstream, scheduler, _) = make(latest: true)
        send([(0, 1), (10, 2), (400, 6)], to: upstream, on: scheduler)
        scheduler.advance(to: .zero.advanced(by: .seconds(1)))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func theFirstValueIsDeliveredAtOnceOnTheScheduler() {
        let (upstream, scheduler, recorder) = make(latest: true)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(5)))
        upstream.send(1)
        #expect(recorder.events == [], "scheduled, not delivered synchronously")
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["5:1"])
    }

    @Test func valuesBeforeTheImmediateDeliveryRunCollapse() {
        for latest in [true, false] {
            let (upstream, scheduler, recorder) = make(latest: latest)
            upstream.send(1)
            upstream.send(2)
            upstream.send(3)
            scheduler.advance(by: .zero)
            #expect(recorder.events == [latest ? "0:3" : "0:1"])
        }
    }

    /// The gap case: a value after a delivery waits for the window to open; a value after the window
    /// has long passed goes at once.
    @Test func windowsCountFromTheLastDelivery() {
        let (upstream, scheduler, recorder) = make(.seconds(60), latest: false)
        upstream.send(0)
        scheduler.advance(by: .zero)
        scheduler.advance(to: .zero.advanced(by: .seconds(45)))
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .seconds(121)))
        upstream.send(2)
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["0:0", "60000:1", "121000:2"])
    }

    @Test func aValueWithoutDemandIsDropped() {
        let (upstream, scheduler, recorder) = make(latest: false, initialDemand: .max(2))
        // 1, 5 and 6 arrive before the immediate delivery runs: latest = false keeps 1.
        upstream.send(1)
        upstream.send(5)
        upstream.send(6)
        send([(50, 2)], to: upstream, on: scheduler)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(200)))
        upstream.send(3)
        recorder.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "100:2"], "3 found no demand and is not kept for the later request")
        upstream.send(4)
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["0:1", "100:2", "1200:4"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "downstream demand never goes upstream")
    }

    @Test func noDemandNoValues() {
        let (upstream, scheduler, recorder) = make(latest: true, initialDemand: nil)
        send([(0, 1), (100, 2), (300, 3)], to: upstream, on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(scheduler.pendingCount == 0, "nothing was scheduled")
    }

    @Test func demandReturnedFromReceiveCounts() {
        let (upstream, scheduler, recorder) = make(latest: true, initialDemand: .max(1), demandPerValue: .max(1))
        send([(0, 1), (10, 2), (300, 3)], to: upstream, on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "100:2", "300:3"])
    }

    @Test func aCompletionFollowsTheWaitingValue() {
        for completion in [Subscribers.Completion<TestError>.finished, .failure(.oops)] {
            let (upstream, scheduler, recorder) = make(latest: true)
            upstream.send(-1)
            scheduler.advance(by: .zero)
            scheduler.advance(to: .zero.advanced(by: .milliseconds(30)))
            upstream.send(1000)
            upstream.send(completion: completion)
            #expect(recorder.events == ["0:-1"])
            scheduler.advance(by: .seconds(1))
            let end =
                switch completion {
                case .finished: "100:finished"
                case .failure: "100:failure(oops)"
                }
            #expect(recorder.events == ["0:-1", "100:1000", end])
            #expect(upstream.events == [.subscribe, .request(.unlimited)])
        }
    }

    @Test func aCompletionWithNothingWaitingIsScheduledAtOnce() {
        let (upstream, scheduler, recorder) = make(latest: true)
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(30)))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == ["0:1"], "on the scheduler, not synchronously")
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["0:1", "30:failure(oops)"])
    }

    @Test func cancelStopsTheWaitingDeliveryAndReachesUpstream() {
        let (upstream, scheduler, recorder) = make(latest: true)
        upstream.send(1)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func cancelAfterUpstreamCompletedStopsTheWaitingCompletion() {
        let (upstream, scheduler, recorder) = make(latest: true)
        upstream.send(1)
        scheduler.advance(by: .zero)
        upstream.send(2)
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "a finished upstream is not cancelled")
    }

    @Test func cancelFromInsideReceiveAlsoDropsTheRidingCompletion() {
        let (upstream, scheduler, recorder) = make(latest: true)
        upstream.send(1)
        scheduler.advance(by: .zero)
        recorder.onValue = { _ in recorder.cancel() }
        upstream.send(2)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "100:2"])
    }

    @Test func cancelFromInsideReceiveReachesUpstream() {
        let (upstream, scheduler, recorder) = make(latest: true)
        recorder.onValue = { _ in recorder.cancel() }
        upstream.send(1)
        scheduler.advance(by: .zero)
        upstream.sendKeepingSubscriber(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func sendingFromInsideReceiveWaitsForTheNextWindow() {
        let (upstream, scheduler, recorder) = make(latest: true)
        recorder.onValue = { value in if value < 3 { upstream.send(value + 1) } }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "100:2", "200:3"])
    }

    @Test func completingFromInsideReceive() {
        let (upstream, scheduler, recorder) = make(latest: true)
        recorder.onValue = { _ in upstream.send(completion: .finished) }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "0:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func nothingAfterCompletion() {
        let (upstream, scheduler, recorder) = make(latest: true)
        upstream.send(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        scheduler.advance(by: .milliseconds(10))
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["0:1", "0:finished"])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (upstream, _, recorder) = make(latest: false)
        let other = TestPublisher<Int, TestError>()
        upstream.lastSubscriber?.receive(subscription: TestPublisher.TestSubscription(owner: other))
        #expect(other.events == [.cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(recorder.subscriptionDescription == "Throttle")
    }

    /// Combine's scheduling: a delivery at once is `schedule(options: nil)`; one that waits for the
    /// window is `schedule(after:tolerance:options:)` with the minimum tolerance and no options; a
    /// burst while a delivery waits schedules nothing more.
    @Test func schedulesAsCombineDoes() {
        let upstream = Upstream()
        let scheduler = RecordingScheduler()
        let recorder = upstream.throttle(for: .milliseconds(100), scheduler: scheduler, latest: true)
            .recordInstants(on: scheduler)
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(to: 10)
        upstream.send(3)
        upstream.send(4)
        scheduler.advance(to: 150)
        upstream.send(completion: .finished)
        scheduler.advance(to: 200)
        #expect(recorder.events == ["0:2", "100:4", "150:finished"])
        #expect(scheduler.calls == ["asap options:nil", "after 100 tolerance:7 options:nil", "asap options:nil"])
    }

    /// One thread sends 1...n while another advances the clock: deliveries never overlap, only
    /// increase, are at least `interval` apart in virtual time, and (latest = true) end with n.
    @Test func valuesFromOneThreadClockFromAnother() {
        for _ in 0..<20 {
            let subject = PassthroughSubject<Int, Never>()
            let scheduler = VirtualTimeScheduler()
            let recorder = ThreadedTimingRecorder<Int, Never>(clock: { scheduler.now.nanoseconds })
            subject.throttle(for: .microseconds(50), scheduler: scheduler, latest: true).subscribe(recorder)
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
            let times = recorder.instants
            #expect(values.last == 2_000)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "\(values)")
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 50_000 }, "\(times)")
            #expect(recorder.completionCount == 1)
            #expect(recorder.afterCompletion == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        }
    }
}
