// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

/// `delay(for:tolerance:scheduler:options:)`, on virtual time. Instants in the logs are milliseconds.
///
/// Combine's behaviour (from tests run against Apple's Combine): the subscription reaches downstream
/// at once; each value and the completion (a failure too) is scheduled `interval` after it arrived;
/// downstream's requests go straight upstream, and so does the demand downstream returns for each
/// delayed value, when it is delivered. The tolerance defaults to the scheduler's minimum tolerance.
@Suite struct DelayTests {
    typealias Upstream = TestPublisher<Int, TestError>

    private func make(
        _ interval: VirtualTime.Stride = .milliseconds(200), initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> (Upstream, VirtualTimeScheduler, InstantRecorder<Int, TestError>) {
        let upstream = Upstream()
        let scheduler = VirtualTimeScheduler()
        let recorder = upstream.delay(for: interval, scheduler: scheduler)
            .recordInstants(on: scheduler, initialDemand: initialDemand, demandPerValue: demandPerValue)
        return (upstream, scheduler, recorder)
    }

    @Test func publisherKeepsItsParametersAndTheToleranceDefaultsToTheMinimum() {
        let scheduler = VirtualTimeScheduler()
        let delay = Just(1).delay(for: .milliseconds(5), scheduler: scheduler)
        #expect(delay.interval == .milliseconds(5))
        #expect(delay.tolerance == scheduler.minimumTolerance)
        #expect(delay.scheduler === scheduler)
        #expect(delay.options == nil)
        let explicit = Publishers.Delay(
            upstream: Just(1), interval: .milliseconds(5), tolerance: .milliseconds(1), scheduler: scheduler)
        #expect(explicit.tolerance == .milliseconds(1))
        #expect(
            Just(1).delay(for: 1, tolerance: .milliseconds(2), scheduler: scheduler, options: nil).tolerance
                == .milliseconds(2))
    }

    @Test func valuesAndCompletionAreShiftedByTheInterval() {
        let (upstream, scheduler, recorder) = make()
        #expect(recorder.log == ["0:subscription"], "the subscription is not delayed")
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(50)))
        upstream.send(2)
        upstream.send(3)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(70)))
        upstream.send(completion: .finished)
        scheduler.advance(to: .zero.advanced(by: .milliseconds(249)))
        #expect(recorder.events == ["200:1"])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1", "250:2", "250:3", "270:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aFailureIsDelayedToo() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        scheduler.advance(by: .milliseconds(199))
        #expect(recorder.events == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == ["200:1", "200:failure(oops)"])
    }

    @Test func aCompletionRightAfterSubscribing() {
        let (upstream, scheduler, recorder) = make(.milliseconds(123))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [])
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["123:failure(oops)"])
    }

    @Test func requestsGoStraightUpstream() {
        let (upstream, scheduler, recorder) = make(initialDemand: nil)
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(10))
        recorder.request(.max(4))
        #expect(upstream.events == [.subscribe, .request(.max(10)), .request(.max(4))])
        upstream.send(2000)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:2000"])
        #expect(
            upstream.events == [.subscribe, .request(.max(10)), .request(.max(4))], "no request for .none returned")
    }

    @Test func demandReturnedForAValueGoesUpstreamWhenItIsDelivered() {
        let (upstream, scheduler, recorder) = make(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.events == [.subscribe, .request(.max(100))], "not when it arrives")
        scheduler.advance(by: .milliseconds(200))
        #expect(recorder.events == ["200:1", "200:2"])
        #expect(upstream.events == [.subscribe, .request(.max(100)), .request(.max(12)), .request(.max(12))])
    }

    /// As in Combine: a value delivered after upstream finished still passes its returned demand on.
    @Test func demandReturnedAfterUpstreamFinishedStillGoesUpstream() {
        let (upstream, scheduler, recorder) = make(demandPerValue: .max(418))
        upstream.send(1000)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1000", "200:finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .request(.max(418))])
    }

    @Test func cancelStopsScheduledValuesAndReachesUpstream() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        scheduler.advance(by: .milliseconds(100))
        upstream.send(2)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.events == ["200:1"])
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(3)
        upstream.sendKeepingSubscriber(completion: .finished)
        recorder.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1"])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    /// Sluice's rule (nothing after a cancel) rather than Combine's, which still delivers a
    /// completion that upstream sent before the cancel.
    @Test func cancelAfterUpstreamFinishedStopsTheScheduledCompletion() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        upstream.send(completion: .finished)
        recorder.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == [])
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "a finished upstream is not cancelled")
    }

    @Test func cancelFromInsideReceive() {
        let (upstream, scheduler, recorder) = make(demandPerValue: .max(1))
        recorder.onValue = { _ in recorder.cancel() }
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1"])
        #expect(
            upstream.events == [.subscribe, .request(.unlimited), .cancel],
            "the returned demand comes after the cancel: dropped")
    }

    @Test func sendingFromInsideReceive() {
        let (upstream, scheduler, recorder) = make()
        recorder.onValue = { value in if value < 3 { upstream.send(value + 1) } }
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1", "400:2", "600:3"])
    }

    @Test func zeroIntervalKeepsOrderAndStillGoesThroughTheScheduler() {
        let (upstream, scheduler, recorder) = make(.zero)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(recorder.events == [])
        scheduler.advance(by: .zero)
        #expect(recorder.events == ["0:1", "0:2", "0:finished"])
    }

    @Test func nothingAfterCompletion() {
        let (upstream, scheduler, recorder) = make()
        upstream.send(1)
        upstream.sendKeepingSubscriber(completion: .finished)
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        scheduler.advance(by: .seconds(1))
        #expect(recorder.events == ["200:1", "200:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (upstream, _, recorder) = make()
        let other = TestPublisher<Int, TestError>()
        upstream.lastSubscriber?.receive(subscription: TestPublisher.TestSubscription(owner: other))
        #expect(other.events == [.cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(
            recorder.log.filter { $0.hasSuffix(":subscription") }.count == 1,
            "only the first subscription goes downstream: \(recorder.log)")
    }

    /// Combine's scheduling: each event with `schedule(after: now + interval, tolerance:options:)`,
    /// the publisher's tolerance (by default the scheduler's minimum) and options.
    @Test func schedulesEachEventAfterTheInterval() {
        let upstream = Upstream()
        let scheduler = RecordingScheduler()
        let recorder = upstream.delay(
            for: .milliseconds(200), tolerance: .nanoseconds(5), scheduler: scheduler, options: 3
        )
        .recordInstants(on: scheduler)
        upstream.send(1)
        scheduler.advance(to: 10)
        upstream.send(2)
        scheduler.advance(to: 20)
        upstream.send(completion: .finished)
        scheduler.advance(to: 1000)
        #expect(recorder.events == ["200:1", "210:2", "220:finished"])
        #expect(
            scheduler.calls == [
                "after 200 tolerance:5 options:3", "after 210 tolerance:5 options:3", "after 220 tolerance:5 options:3",
            ])

        let other = RecordingScheduler()
        _ = Just(1).delay(for: .milliseconds(1), scheduler: other).recordInstants(on: other)
        #expect(
            other.calls == ["after 1 tolerance:7 options:nil", "after 1 tolerance:7 options:nil"],
            "the value and the completion")
    }

    /// One thread sends 1...n while another advances the clock: every value arrives once, in order,
    /// exactly `interval` after it was sent, then one completion.
    @Test func valuesFromOneThreadClockFromAnother() {
        for _ in 0..<10 {
            let subject = PassthroughSubject<Int, Never>()
            let scheduler = VirtualTimeScheduler()
            let recorder = ThreadedTimingRecorder<Int, Never>(clock: { scheduler.now.nanoseconds })
            let sentAt = SharedInts()
            subject.delay(for: .microseconds(30), scheduler: scheduler).subscribe(recorder)
            let done = Atomic<Bool>(false)
            let box = UncheckedBox(value: subject)
            let sender = onAnotherThread {
                for value in 1...2_000 {
                    // The send reads the clock after this does, and the clock only moves forward.
                    let before = scheduler.now.nanoseconds
                    box.value.send(value)
                    sentAt.append(before)
                }
                done.store(true, ordering: .releasing)
            }
            let clock = onAnotherThread {
                while !done.load(ordering: .acquiring) { scheduler.advance(by: .microseconds(10)) }
            }
            sender.wait()
            clock.wait()
            subject.send(completion: .finished)
            scheduler.advance(by: .milliseconds(1))
            #expect(recorder.values == Array(1...2_000))
            let delivered = recorder.instants
            let sent = sentAt.all
            #expect(zip(sent, delivered).allSatisfy { $1 >= $0 + 30_000 })
            #expect(recorder.completionCount == 1)
            #expect(recorder.afterCompletion == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        }
    }
}
