// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// `collect(.byTime)` and `collect(.byTimeOrCount)`: windows start at the subscription; each
/// window's elements are emitted at its end, on the scheduler; empty windows emit nothing;
/// `.byTimeOrCount` also emits a full array at once and starts the next window then. `.finished`
/// flushes the last non-empty array; a failure drops it. `.byTime` asks upstream for one element
/// per downstream request, then one more per element (Combine's demand); `.byTimeOrCount` asks for
/// `count` elements per array demanded, and for none for the demand returned for an array its timer
/// closed, which still counts downstream (Combine since macOS 11.3 / iOS 14.5). The two scenarios
/// at the end are those a suite its authors ran against Combine records (CombineX's
/// `CollectByTimeSpec` and `VersioningCollectByTimeSpec`).
@Suite struct CollectByTimeTests {
    typealias Up = TestPublisher<Int, TestError>

    @Test func byTimeEmitsEachWindowAtItsEnd() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler)
        #expect(up.events == [.subscribe, .request(.max(1))])
        scheduler.advance(to: virtualMs(2))
        #expect(up.send(1) == .max(1))
        scheduler.advance(to: virtualMs(5))
        up.send(2)
        scheduler.advance(to: virtualMs(12))
        up.send(3)
        // Nothing in [20ms, 30ms): no empty array at 30ms.
        scheduler.advance(to: virtualMs(31))
        up.send(4)
        scheduler.advance(to: virtualMs(35))
        #expect(timeline.lines == ["0ms:subscription", "10ms:value([1, 2])", "20ms:value([3])"])
        up.send(completion: .finished)
        scheduler.advance()
        #expect(
            timeline.lines == [
                "0ms:subscription", "10ms:value([1, 2])", "20ms:value([3])", "35ms:value([4])", "35ms:finished",
            ])
        #expect(up.events == [.subscribe, .request(.max(1))])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func byTimeWindowsStartAtTheSubscription() {
        let scheduler = VirtualTimeScheduler()
        scheduler.advance(to: virtualMs(3))
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler)
        up.send(1)
        scheduler.advance(to: virtualMs(14))
        up.send(2)
        scheduler.advance(to: virtualMs(30))
        #expect(timeline.lines == ["3ms:subscription", "13ms:value([1])", "23ms:value([2])"])
    }

    @Test func byTimeAsksUpstreamForOnePerRequestThenOneMorePerValueWhateverDownstreamAsks() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(
            on: scheduler, initialDemand: nil, demandPerValue: .max(1))
        #expect(up.events == [.subscribe])
        timeline.request(.max(1))
        #expect(up.events == [.subscribe, .request(.max(1))])
        #expect(up.send(1) == .max(1))
        scheduler.advance(to: virtualMs(10))
        timeline.request(.max(3))
        timeline.request(.unlimited)
        #expect(up.events == [.subscribe, .request(.max(1)), .request(.max(1)), .request(.max(1))])
        #expect(timeline.lines == ["0ms:subscription", "10ms:value([1])"])
    }

    /// Chosen where Combine's behaviour is not documented: a window that ends while downstream has
    /// no demand keeps its elements as one array, delivered (on the scheduler) once demand comes.
    @Test func byTimeWindowsWaitForDemand() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler, initialDemand: nil)
        up.send(1)
        scheduler.advance(to: virtualMs(12))
        up.send(2)
        scheduler.advance(to: virtualMs(25))
        #expect(timeline.lines == ["0ms:subscription"])
        timeline.request(.max(1))
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "25ms:value([1])"])
        // The second window ([2], closed at 20ms) goes out as soon as there is demand for it.
        scheduler.advance(to: virtualMs(27))
        #expect(timeline.lines == ["0ms:subscription", "25ms:value([1])"])
        timeline.request(.max(5))
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "25ms:value([1])", "27ms:value([2])"])
    }

    @Test func finishedWaitsForDemandForTheLastArray() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler, initialDemand: nil)
        up.send(1)
        up.send(completion: .finished)
        scheduler.advance(to: virtualMs(4))
        #expect(timeline.lines == ["0ms:subscription"])
        timeline.request(.max(1))
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "4ms:value([1])", "4ms:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func finishedWithNothingCollectedEmitsNoArray() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler)
        up.send(1)
        scheduler.advance(to: virtualMs(15))
        up.send(completion: .finished)
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "10ms:value([1])", "15ms:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func failureDropsTheCollectedElements() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 5)).timeline(on: scheduler)
        scheduler.advance(to: virtualMs(2))
        up.send(1)
        up.send(2)
        scheduler.advance(to: virtualMs(5))
        up.send(completion: .failure(.oops))
        scheduler.advance(to: virtualMs(50))
        #expect(timeline.lines == ["0ms:subscription", "5ms:failure(oops)"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func byTimeOrCountEmitsAFullArrayAtOnceAndStartsTheNextWindow() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 2)).timeline(
            on: scheduler, initialDemand: .max(3))
        #expect(up.events == [.subscribe, .request(.max(6))])
        scheduler.advance(to: virtualMs(1))
        up.send(1)
        scheduler.advance(to: virtualMs(3))
        up.send(2)
        scheduler.advance()
        #expect(timeline.lines == ["0ms:subscription", "3ms:value([1, 2])"])
        // The next window started at 3ms: 3 (at 11ms) goes out at 13ms, not at 10ms or 20ms.
        scheduler.advance(to: virtualMs(11))
        up.send(3)
        scheduler.advance(to: virtualMs(19))
        #expect(timeline.lines == ["0ms:subscription", "3ms:value([1, 2])", "13ms:value([3])"])
        up.send(4)
        up.send(5)
        up.send(6)
        scheduler.advance(to: virtualMs(40))
        #expect(timeline.lines == ["0ms:subscription", "3ms:value([1, 2])", "13ms:value([3])", "19ms:value([4, 5])"])
        // Downstream's demand (3 arrays) is used up; [6] waits for more.
        timeline.request(.max(1))
        scheduler.advance()
        #expect(timeline.lines.last == "40ms:value([6])")
        #expect(up.events == [.subscribe, .request(.max(6)), .request(.max(2))])
    }

    @Test func byTimeOrCountMultipliesReturnedDemandByCount() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        _ = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 3)).timeline(
            on: scheduler, initialDemand: .max(1), demandPerValue: .max(2))
        up.send(1)
        up.send(2)
        up.send(3)
        #expect(up.events == [.subscribe, .request(.max(3))])
        scheduler.advance()
        #expect(up.events == [.subscribe, .request(.max(3)), .request(.max(6))])
    }

    @Test func byTimeOrCountCountsTheDemandReturnedForAnArrayItsTimerClosedAndAsksUpstreamForNothing() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 3)).timeline(
            on: scheduler, initialDemand: .max(1), demandPerValue: .max(1))
        up.send(1)
        scheduler.advance(to: virtualMs(10))
        #expect(timeline.lines == ["0ms:subscription", "10ms:value([1])"])
        #expect(up.events == [.subscribe, .request(.max(3))])
        // The `.max(1)` returned for [1] counts downstream: the full array [2, 3, 4] goes out.
        up.send(2)
        up.send(3)
        up.send(4)
        scheduler.advance(to: virtualMs(15))
        #expect(timeline.lines == ["0ms:subscription", "10ms:value([1])", "10ms:value([2, 3, 4])"])
        // Demand returned for an array a full count closed asks upstream for its elements.
        #expect(up.events == [.subscribe, .request(.max(3)), .request(.max(3))])
    }

    @Test func cancelStopsTheTimerAndReachesUpstream() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler)
        up.send(1)
        #expect(scheduler.pendingCount == 1)
        timeline.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(up.events == [.subscribe, .request(.max(1)), .cancel])
        up.sendKeepingSubscriber(2)
        up.sendKeepingSubscriber(completion: .finished)
        timeline.request(.max(1))
        timeline.cancel()
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription"])
        #expect(up.events == [.subscribe, .request(.max(1)), .cancel])
    }

    @Test func cancelDropsAFullArrayInFlight() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 1)).timeline(on: scheduler)
        up.send(1)
        timeline.cancel()
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func nothingAfterCompletion() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTime(scheduler, .milliseconds(10))).timeline(on: scheduler)
        up.send(1)
        up.sendKeepingSubscriber(completion: .finished)
        scheduler.advance()
        up.sendKeepingSubscriber(2)
        up.sendKeepingSubscriber(completion: .failure(.oops))
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "0ms:value([1])", "0ms:finished"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancelFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 1)).timeline(
            on: scheduler, demandPerValue: .max(1))
        timeline.onValue = { _ in timeline.cancel() }
        up.send(1)
        up.send(2)
        scheduler.advance(to: virtualMs(100))
        #expect(timeline.lines == ["0ms:subscription", "0ms:value([1])"])
        #expect(up.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func requestFromInsideReceive() {
        let scheduler = VirtualTimeScheduler()
        let up = Up()
        let timeline = up.collect(.byTimeOrCount(scheduler, .milliseconds(10), 2)).timeline(
            on: scheduler, initialDemand: .max(1))
        timeline.onValue = { _ in timeline.request(.max(1)) }
        up.send(1)
        up.send(2)
        scheduler.advance()
        #expect(up.events == [.subscribe, .request(.max(2)), .request(.max(2))])
        #expect(timeline.lines == ["0ms:subscription", "0ms:value([1, 2])"])
    }

    @Test func typeAndProperties() {
        let scheduler = VirtualTimeScheduler()
        let publisher: Publishers.CollectByTime<Up, VirtualTimeScheduler> = Up().collect(
            .byTimeOrCount(scheduler, .milliseconds(4), 9))
        guard case .byTimeOrCount(_, let interval, let count) = publisher.strategy else {
            Issue.record("strategy not kept")
            return
        }
        #expect(interval == .milliseconds(4))
        #expect(count == 9)
        let description = String(
            describing: Up().collect(.byTime(scheduler, .seconds(1))).timeline(on: scheduler).subscription!)
        #expect(description == "CollectByTime")
    }

    /// Values sent from one thread while another advances the clock: every value arrives once, in
    /// order, in non-empty arrays, then exactly one completion.
    @Test(arguments: [nil, 7] as [Int?])
    func valuesFromOneThreadWhileAnotherAdvancesTheClock(count: Int?) {
        let scheduler = VirtualTimeScheduler()
        let sending = SendingSubject()
        let recorder = ThreadedTimingRecorder<[Int], Never>()
        let strategy: Publishers.TimeGroupingStrategy<VirtualTimeScheduler> =
            count.map { .byTimeOrCount(scheduler, .microseconds(10), $0) } ?? .byTime(scheduler, .microseconds(10))
        sending.subject.collect(strategy).subscribe(recorder)
        let total = 20_000
        let senderDone = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                for value in 1...total { sending.send(value) }
                sending.finish()
                senderDone.store(true, ordering: .releasing)
            } else {
                while !senderDone.load(ordering: .acquiring) { scheduler.advance(by: .microseconds(3)) }
            }
        }
        scheduler.advance(by: .seconds(1))
        let groups = recorder.values
        #expect(groups.allSatisfy { !$0.isEmpty })
        if let count { #expect(groups.allSatisfy { $0.count <= count }) }
        #expect(groups.flatMap { $0 } == Array(1...total))
        #expect(recorder.completionCount == 1)
        #expect(recorder.afterCompletion == 0)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(scheduler.pendingCount == 0)
    }

    /// On a concurrent queue the arrays that full windows close are delivered by one caller at a
    /// time and in order: a delivery that finds another one running leaves what waits to it.
    @Test func aConcurrentSchedulerDeliversOneArrayAtATimeInOrder() async {
        let queue = DispatchQueue(label: "collect.concurrent", attributes: .concurrent)
        let sending = SendingSubject()
        let recorder = ThreadedTimingRecorder<[Int], Never>()
        sending.subject.collect(.byTimeOrCount(queue, .seconds(60), 1)).subscribe(recorder)
        let total = 5_000
        for value in 1...total { sending.send(value) }
        sending.finish()
        let deadline = ContinuousClock.now + .seconds(30)
        while recorder.completionCount == 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(recorder.values.flatMap { $0 } == Array(1...total))
        #expect(recorder.completionCount == 1)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
    }

    // MARK: The scenarios recorded against Combine

    /// With `.byTime` and an initial demand of `.max(2)`, a subscriber that returns `.max(1)` for
    /// the arrays holding 0 or 5: upstream records a `.max(1)` at the subscription and one per
    /// value (101), then a 102nd at the subscriber's next request.
    @Test func byTimeAsksForOneAtEachDownstreamRequestAsCombineDoes() {
        let scheduler = VirtualTimeScheduler()
        let up = DemandKeepingUpstream()
        let timeline = up.publisher.collect(.byTime(scheduler, .seconds(1))).timeline(
            on: scheduler, initialDemand: .max(2))
        timeline.answer = { $0.contains(0) || $0.contains(5) ? .max(1) : .none }
        up.sendEveryValue(of: 0..<100, advancing: scheduler)
        #expect(up.requested == [.max(1)])
        #expect(up.returned == Array(repeating: .max(1), count: 100))
        timeline.request(.max(2))
        #expect(up.requested == [.max(1), .max(1)])
    }

    /// With `.byTimeOrCount(…, 2)` and an initial demand of `.max(2)`, a subscriber that returns
    /// `.max(1)` for the array holding 0 and `.max(5)` for the array holding 2: upstream is asked for
    /// `.max(4)`, then `.max(2)` for `[0, 1]` (a full count closed it); the `.max(5)` returned for
    /// `[2]`, which the timer closed, asks upstream for nothing but counts downstream, so `[5]` goes
    /// out when the timer fires. Every value returns `.max(0)`.
    @Test func byTimeOrCountKeepsTheDemandReturnedForATimerClosedArrayDownstreamAsCombineDoes() {
        let scheduler = VirtualTimeScheduler()
        let up = DemandKeepingUpstream()
        let timeline = up.publisher.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).timeline(
            on: scheduler, initialDemand: .max(2))
        var arrays: [[Int]] = []
        timeline.answer = { array in
            arrays.append(array)
            return array.contains(0) ? .max(1) : array.contains(2) ? .max(5) : .none
        }
        up.sendEveryValue(of: 0..<100, advancing: scheduler)
        #expect(up.requested == [.max(4), .max(2)])
        #expect(up.returned == Array(repeating: .max(0), count: 6))
        #expect(arrays == [[0, 1], [2], [3, 4], [5]])
    }
}

/// An upstream that sends a value only while it has demand (what was requested plus what
/// `receive(_:)` returned, less what was sent), as the subject of the suite that recorded these
/// scenarios does, and writes down requests and returned demand apart.
private final class DemandKeepingUpstream {
    let publisher = TestPublisher<Int, TestError>()
    private(set) var returned: [Subscribers.Demand] = []
    private(set) var sent = 0

    var requested: [Subscribers.Demand] {
        publisher.events.compactMap { if case .request(let demand) = $0 { demand } else { nil } }
    }

    /// Sends `values`, advancing the clock by a second before every third one (0, 3, 6, ...).
    func sendEveryValue(of values: Range<Int>, advancing scheduler: VirtualTimeScheduler) {
        for value in values {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            let owed = (requested + returned).reduce(Subscribers.Demand.none, +)
            guard owed > sent else { continue }
            sent += 1
            returned.append(publisher.send(value))
        }
    }
}
