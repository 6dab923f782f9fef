// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// `measureInterval(using:options:)`: facts from Combine (OpenCombine's MeasureIntervalTests, run
/// against Combine): the first interval is measured from the subscription; each value becomes the
/// exact stride since the previous one, read from `scheduler.now`; demand passes through, the
/// demand returned for a value going upstream as a `request`.
@Suite struct MeasureIntervalTests {
    typealias Up = TestPublisher<Int, TestError>
    typealias Stride = VirtualTime.Stride

    @Test func eachValueIsTheExactStrideSinceTheLastEvent() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(to: virtualMs(3))
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(14))
        up.send(1)
        scheduler.advance(to: virtualMs(17))
        up.send(2)
        up.send(3)
        scheduler.advance(by: .nanoseconds(1_500))
        up.send(4)
        up.send(completion: .finished)
        #expect(
            timeline.lines == [
                "3ms:subscription", "14ms:value(11ms)", "17ms:value(3ms)", "17ms:value(0ms)",
                "17001500ns:value(1500ns)", "17001500ns:finished",
            ])
        #expect(up.events == [.subscribe, .request(.unlimited)])
        // Nothing is scheduled: the operator only reads the clock.
        #expect(scheduler.pendingCount == 0)
    }

    @Test func theOutputTypeIsTheSchedulersStride() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let publisher: Publishers.MeasureInterval<Up, VirtualTimeScheduler> = up.measureInterval(
            using: scheduler, options: nil)
        var strides: [Stride] = []
        let cancellable = publisher.sink(receiveCompletion: { _ in }, receiveValue: { strides.append($0) })
        scheduler.advance(by: .seconds(2))
        up.send(0)
        #expect(strides == [.seconds(2)])
        cancellable.cancel()
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func demandReturnedForAValueIsRequestedUpstream() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(
            on: scheduler, initialDemand: .max(1), demandPerValue: .max(1))
        #expect(up.send(1) == .none)
        #expect(up.send(2) == .none)
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(1)), .request(.max(1))])
        timeline.request(.max(5))
        timeline.request(.unlimited)
        #expect(
            up.events == [
                .subscribe, .request(.max(1)), .request(.max(1)), .request(.max(1)), .request(.max(5)),
                .request(.unlimited),
            ])
    }

    @Test func noDemandReturnedMeansNoRequest() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(on: scheduler, initialDemand: .max(13))
        up.send(1)
        up.send(2)
        #expect(up.events == [.subscribe, .request(.max(13))])
        #expect(timeline.lines.count == 3)
    }

    @Test func noRequestBeforeDownstreamAsks() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        _ = up.measureInterval(using: scheduler).timeline(on: scheduler, initialDemand: nil)
        #expect(up.events == [.subscribe])
    }

    @Test func failurePassesThrough() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(on: scheduler)
        scheduler.advance(by: .milliseconds(4))
        up.send(completion: .failure(.oops))
        #expect(timeline.lines == ["0ms:subscription", "4ms:failure(oops)"])
    }

    @Test func cancelReachesUpstreamOnceAndStopsEverything() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(on: scheduler, initialDemand: nil)
        let subscription = timeline.subscription
        subscription?.cancel()
        subscription?.request(.max(1000))
        subscription?.cancel()
        up.sendKeepingSubscriber(1000)
        up.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(timeline.lines == ["0ms:subscription"])
        #expect(up.events == [.subscribe, .cancel])
    }

    @Test func cancelFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(
            on: scheduler, initialDemand: .max(5), demandPerValue: .max(1))
        timeline.onValue = { _ in timeline.cancel() }
        up.send(1)
        up.sendKeepingSubscriber(2)
        #expect(timeline.lines == ["0ms:subscription", "0ms:value(0ms)"])
        // The demand the cancelled subscriber returned is not passed on.
        #expect(up.events == [.subscribe, .request(.max(5)), .cancel])
    }

    @Test func requestFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.measureInterval(using: scheduler).timeline(on: scheduler, initialDemand: .max(1))
        timeline.onValue = { _ in timeline.request(.max(2)) }
        up.send(1)
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(2))])
    }

    @Test func laws() {
        let scheduler = VirtualTimeScheduler()
        OperatorLaws.check { $0.measureInterval(using: scheduler) }
    }

    /// Values sent from one thread while another advances the clock: every value becomes one
    /// stride, none negative, and they add up to no more than the time that passed.
    @Test func valuesFromOneThreadWhileAnotherAdvancesTheClock() {
        let scheduler = VirtualTimeScheduler()
        let sending = SendingSubject()
        let recorder = ThreadedTimingRecorder<Stride, Never>()
        sending.subject.measureInterval(using: scheduler).subscribe(recorder)
        let total = 20_000
        let senderDone = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                for value in 1...total { sending.send(value) }
                sending.finish()
                senderDone.store(true, ordering: .releasing)
            } else {
                while !senderDone.load(ordering: .acquiring) { scheduler.advance(by: .nanoseconds(7)) }
            }
        }
        let strides = recorder.values
        #expect(strides.count == total)
        #expect(strides.allSatisfy { $0 >= .nanoseconds(0) })
        let sum = strides.reduce(0) { $0 + $1.nanoseconds }
        #expect(sum <= scheduler.now.nanoseconds)
        #expect(recorder.completionCount == 1)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
    }
}
