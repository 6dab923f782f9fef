// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// `timeout(_:scheduler:options:customError:)`: facts from Combine (OpenCombine's TimeoutTests,
/// run against Combine): the clock starts at the subscription, again at the first request and at
/// every value; values and completions are delivered on the scheduler; at the timeout upstream is
/// cancelled and the stream finishes, or fails with the custom error.
@Suite struct TimeoutTests {
    typealias Up = TestPublisher<Int, TestError>

    /// Combine crashes here (its timer fires inside the subscribe and re-enters its lock); Sluice
    /// times out, and its subscriber has the subscription before the completion.
    @Test func onAnImmediateSchedulerItTimesOutAfterTheSubscription() {
        let up = Up()
        let recorder = up.timeout(.nanoseconds(10), scheduler: ImmediateScheduler.shared).record()
        #expect(recorder.events == [.subscription, .finished])
        #expect(up.events.contains(.cancel))
    }

    @Test func finishesAtTheExactInstantIntervalAfterTheLastValue() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(5))
        #expect(up.send(1) == .none)
        scheduler.advance(to: virtualMs(12))
        up.send(2)
        scheduler.advance(to: virtualMs(21))
        #expect(timeline.lines == ["0ms:subscription", "5ms:value(1)", "12ms:value(2)"])
        #expect(up.events == [.subscribe, .request(.unlimited)])
        scheduler.advance(to: virtualMs(22))
        #expect(timeline.lines == ["0ms:subscription", "5ms:value(1)", "12ms:value(2)", "22ms:finished"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func eachValueSchedulesANewTimerSoATieRunsInSchedulingOrder() {
        // The first request makes the subject send at once, and delay schedules that value for
        // 5 ms before the timeout's clock restarts: the new timer, also due at 5 ms, is scheduled
        // after it. So the value arrives first and starts the clock again, as in Combine (a single
        // timer armed at the subscription would fire first and lose the value).
        let scheduler = VirtualTimeScheduler()
        let subject = CurrentValueSubject<Int, TestError>(7)
        let timeline = subject.delay(for: .milliseconds(5), scheduler: scheduler)
            .timeout(.milliseconds(5), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "5ms:value(7)", "10ms:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func failsWithTheCustomError() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler, customError: { .oops }).timeline(
            on: scheduler)
        scheduler.advance(to: virtualMs(3))
        up.send(1)
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "3ms:value(1)", "13ms:failure(oops)"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theClockStartsAtTheSubscription() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(to: virtualMs(3))
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(12))
        #expect(timeline.lines == ["3ms:subscription"])
        scheduler.advance(to: virtualMs(50))
        #expect(timeline.lines == ["3ms:subscription", "13ms:finished"])
    }

    @Test func theFirstRequestStartsTheClockAgainLaterRequestsDoNot() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler, initialDemand: nil)
        scheduler.advance(to: virtualMs(4))
        timeline.request(.max(1))
        scheduler.advance(to: virtualMs(6))
        timeline.request(.max(2))
        scheduler.advance(to: virtualMs(13))
        #expect(timeline.lines == ["0ms:subscription"])
        scheduler.advance(to: virtualMs(50))
        #expect(timeline.lines == ["0ms:subscription", "14ms:finished"])
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(2)), .cancel])
        // A request after the timeout goes nowhere.
        timeline.request(.max(5))
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(2)), .cancel])
    }

    @Test func demandReturnedForADeliveredValueIsRequestedUpstream() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.seconds(1), scheduler: scheduler).timeline(
            on: scheduler, initialDemand: .max(2), demandPerValue: .max(1))
        #expect(up.send(1) == .none)
        #expect(up.send(2) == .none)
        // Not delivered yet: the values wait on the scheduler, and so does their demand.
        #expect(up.events == [.subscribe, .request(.max(2))])
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "0ms:value(1)", "0ms:value(2)"])
        #expect(up.events == [.subscribe, .request(.max(2)), .request(.max(1)), .request(.max(1))])
    }

    @Test func noDemandReturnedMeansNoRequest() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        _ = up.timeout(.seconds(1), scheduler: scheduler).timeline(on: scheduler, initialDemand: .max(1))
        up.send(42)
        scheduler.advance(by: .milliseconds(1))
        #expect(up.events == [.subscribe, .request(.max(1))])
    }

    @Test(arguments: [Subscribers.Completion<TestError>.finished, .failure(.oops)])
    func upstreamCompletionIsDeliveredOnTheSchedulerAndStopsTheClock(completion: Subscribers.Completion<TestError>) {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler, customError: { .other }).timeline(
            on: scheduler)
        scheduler.advance(to: virtualMs(2))
        up.send(1)
        scheduler.advance(to: virtualMs(7))
        up.send(completion: completion)
        #expect(timeline.lines == ["0ms:subscription", "2ms:value(1)"])
        scheduler.advance(to: virtualMs(100))
        let end = if case .failure = completion { "7ms:failure(oops)" } else { "7ms:finished" }
        #expect(timeline.lines == ["0ms:subscription", "2ms:value(1)", end])
        #expect(up.events == [.subscribe, .request(.unlimited)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancelStopsThePendingTimerAndDropsValuesInFlight() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(2))
        up.send(1)
        #expect(scheduler.pendingCount == 2)  // the timer and the value's delivery
        timeline.cancel()
        #expect(scheduler.pendingCount == 1)  // the timer is gone
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription"])
        #expect(scheduler.pendingCount == 0)
        timeline.cancel()
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func cancelWhileTheCompletionIsInFlightStillCancelsUpstream() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(
            on: scheduler, initialDemand: .max(1))
        up.send(completion: .finished)
        timeline.cancel()
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription"])
        #expect(up.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func nothingAfterTheTimeout() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(10))
        #expect(timeline.lines == ["0ms:subscription", "10ms:finished"])
        up.sendKeepingSubscriber(1)
        up.sendKeepingSubscriber(completion: .failure(.oops))
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "10ms:finished"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aValueAlreadyScheduledWhenTheTimeoutFiresIsDropped() {
        // The value arrives at 10ms, after the timer (due at 10ms) was queued, so the timer runs first.
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(9))
        scheduler.schedule(after: virtualMs(10)) { up.send(1) }
        scheduler.advance(to: virtualMs(100))
        // The send at 10ms ran after the 10ms timer: the stream had already ended.
        #expect(timeline.lines == ["0ms:subscription", "10ms:finished"])
    }

    @Test func cancelFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(on: scheduler)
        timeline.onValue = { _ in timeline.cancel() }
        up.send(1)
        up.send(2)
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "0ms:value(1)"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func requestFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.timeout(.milliseconds(10), scheduler: scheduler).timeline(
            on: scheduler, initialDemand: .max(1))
        timeline.onValue = { _ in timeline.request(.max(3)) }
        up.send(1)
        scheduler.advance()
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(3))])
        #expect(timeline.lines == ["0ms:subscription", "0ms:value(1)"])
    }

    @Test func typeAndProperties() {
        let scheduler = VirtualTimeScheduler()
        let publisher: Publishers.Timeout<Up, VirtualTimeScheduler> = Up().timeout(
            .milliseconds(7), scheduler: scheduler, customError: { .oops })
        #expect(publisher.interval == .milliseconds(7))
        #expect(publisher.customError?() == .oops)
        #expect(publisher.options == nil)
        let description = String(
            describing: Up().timeout(.seconds(1), scheduler: scheduler).timeline(on: scheduler).subscription!)
        #expect(description == "Timeout")
    }

    /// Values sent from one thread while another advances the clock: the values delivered are a
    /// prefix of those sent, in order, each once, and exactly one completion arrives.
    @Test func valuesFromOneThreadWhileAnotherAdvancesTheClock() {
        for round in 0..<20 {
            let scheduler = VirtualTimeScheduler()
            let sending = SendingSubject()
            let recorder = ThreadedTimingRecorder<Int, Never>()
            sending.subject.timeout(.milliseconds(5), scheduler: scheduler).subscribe(recorder)
            let total = 2_000
            let senderDone = Atomic<Bool>(false)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 1...total { sending.send(value) }
                    if round.isMultiple(of: 2) { sending.finish() }
                    senderDone.store(true, ordering: .releasing)
                } else {
                    // Slow steps while values flow: the timeout may or may not fire meanwhile.
                    var steps = 0
                    while !senderDone.load(ordering: .acquiring) && steps < 100_000 {
                        scheduler.advance(by: .microseconds(50))
                        steps += 1
                    }
                }
            }
            scheduler.advance(by: .seconds(1))
            let values = recorder.values
            #expect(values == Array(0..<values.count).map { $0 + 1 }, "round \(round): out of order or duplicated")
            #expect(recorder.completionCount == 1, "round \(round)")
            #expect(recorder.afterCompletion == 0)
            #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
            #expect(scheduler.pendingCount == 0)
        }
    }
}
