// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

@Suite struct SwitchToLatestTests {
    typealias Inner = TestPublisher<Int, TestError>

    @Test func valuesOnlyFromTheLatestInnerAndThePreviousIsCancelled() {
        let upstream = TestPublisher<Inner, TestError>()
        let first = Inner()
        let second = Inner()
        let recorder = upstream.switchToLatest().record()
        #expect(recorder.subscriptionDescriptions == ["SwitchToLatest"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(first)
        first.send(1)
        upstream.send(second)
        first.sendKeepingSubscriber(2)
        second.send(3)
        #expect(recorder.values == [1, 3])
        #expect(first.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(second.events == [.subscribe, .request(.unlimited)])
    }

    /// Each new inner publisher is asked for what downstream requested and has not received.
    @Test func outstandingDemandGoesToEachNewInner() {
        let upstream = TestPublisher<Inner, TestError>()
        let inners = (0..<3).map { _ in Inner() }
        let recorder = upstream.switchToLatest().record(initialDemand: nil, demandPerValue: .max(5))
        upstream.send(inners[0])
        #expect(inners[0].events == [.subscribe])
        recorder.request(.max(1))
        #expect(inners[0].events == [.subscribe, .request(.max(1))])
        inners[0].send(completion: .finished)
        recorder.request(.max(41))
        recorder.request(.max(1))
        upstream.send(inners[1])
        #expect(inners[1].events == [.subscribe, .request(.max(43))])
        #expect(inners[1].send(1) == .max(5))
        #expect(inners[1].send(2) == .max(5))
        upstream.send(inners[2])
        #expect(inners[1].events == [.subscribe, .request(.max(43)), .cancel])
        #expect(inners[2].events == [.subscribe, .request(.max(51))])
        upstream.send(completion: .finished)
        recorder.request(.max(9))
        #expect(inners[2].events == [.subscribe, .request(.max(51)), .request(.max(9))])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(recorder.values == [1, 2])
    }

    @Test func finishesWhenUpstreamAndTheLatestInnerHaveFinished() {
        for innerFirst in [false, true] {
            let upstream = TestPublisher<Inner, TestError>()
            let inner = Inner()
            let recorder = upstream.switchToLatest().record(initialDemand: .max(1))
            upstream.send(inner)
            if innerFirst {
                inner.send(completion: .finished)
                #expect(recorder.events == [.subscription])
                upstream.send(completion: .finished)
            } else {
                upstream.send(completion: .finished)
                #expect(recorder.events == [.subscription])
                #expect(inner.send(7) == .none)
                inner.send(completion: .finished)
            }
            #expect(recorder.completions == [.finished])
            #expect(inner.events == [.subscribe, .request(.max(1))])
        }
    }

    @Test func innerFailureCancelsUpstream() {
        let upstream = TestPublisher<Inner, TestError>()
        let inner = Inner()
        let recorder = upstream.switchToLatest().record(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.send(inner)
        #expect(inner.send(1) == .max(1))
        #expect(inner.send(2) == .max(1))
        inner.send(completion: .failure(.oops))
        inner.sendKeepingSubscriber(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        #expect(inner.events == [.subscribe, .request(.max(1))])
    }

    /// Upstream fails while the inner publisher's value is being delivered, and downstream cancels
    /// from inside that same `receive`: once its cancel has returned, it hears nothing more.
    @Test func aFailureDuringADeliveryIsNotDeliveredAfterACancelFromInsideIt() {
        let upstream = TestPublisher<Inner, TestError>()
        let inner = Inner()
        let recorder = upstream.switchToLatest().record()
        var eventsAtCancel: Int?
        recorder.onValue = { _ in
            upstream.send(completion: .failure(.oops))
            recorder.cancel()
            eventsAtCancel = recorder.events.count
        }
        upstream.send(inner)
        inner.send(1)
        #expect(recorder.events.count == eventsAtCancel)
        #expect(Array(recorder.events.prefix(2)) == [.subscription, .value(1)])
        #expect(inner.events.last == .cancel)
    }

    @Test func upstreamFailureCancelsTheInner() {
        let upstream = TestPublisher<Inner, TestError>()
        let inner = Inner()
        let recorder = upstream.switchToLatest().record(initialDemand: .max(1))
        upstream.send(inner)
        upstream.send(completion: .failure(.oops))
        #expect(inner.events == [.subscribe, .request(.max(1)), .cancel])
        inner.sendKeepingSubscriber(1)
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    @Test func cancelReachesTheInnerAndUpstream() {
        let upstream = TestPublisher<Inner, TestError>()
        let inner = Inner()
        let recorder = upstream.switchToLatest().record(initialDemand: .max(42))
        upstream.send(inner)
        recorder.cancel()
        #expect(inner.events == [.subscribe, .request(.max(42)), .cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        inner.sendKeepingSubscriber(1)
        upstream.sendKeepingSubscriber(Inner())
        #expect(recorder.events == [.subscription])
    }

    // MARK: Signals out of order (as OpenCombine's Apple-validated SwitchToLatestTests record)

    /// The latest inner publisher may send before its subscription: the value is delivered and
    /// the publisher is answered with what downstream returned.
    @Test func anInnerValueBeforeItsSubscriptionIsDelivered() throws {
        let upstream = TestPublisher<HeldPublisher<Int, TestError>, TestError>()
        let recorder = upstream.switchToLatest().record(initialDemand: .unlimited, demandPerValue: .max(42))
        let inner = HeldPublisher<Int, TestError>()
        upstream.send(inner)
        #expect(try #require(inner.subscriber).receive(1) == .max(42))
        #expect(recorder.values == [1])
    }

    /// A second subscription of the latest inner publisher is cancelled; one that comes after it
    /// completed is left alone while the stream runs.
    @Test func aSecondInnerSubscriptionIsCancelledOneAfterItsCompletionLeftAlone() throws {
        let upstream = TestPublisher<HeldPublisher<Int, TestError>, TestError>()
        let recorder = upstream.switchToLatest().record(initialDemand: .max(3))
        let inner = HeldPublisher<Int, TestError>()
        upstream.send(inner)
        let side = try #require(inner.subscriber)
        let first = TestPublisher<Int, TestError>()
        let second = TestPublisher<Int, TestError>()
        let third = TestPublisher<Int, TestError>()
        first.subscribe(side)
        second.subscribe(side)
        #expect(first.events == [.subscribe, .request(.max(3))])
        #expect(second.events == [.subscribe, .cancel])
        side.receive(completion: .finished)
        third.subscribe(side)
        #expect(third.events == [.subscribe])
        #expect(recorder.events == [.subscription])
    }

    /// Upstream completing while the latest inner publisher's subscription has not come: the late
    /// subscription is still asked for downstream's demand, after a failure too.
    @Test func aLateInnerSubscriptionIsAskedForTheDemandAfterUpstreamCompleted() throws {
        for completion in [Subscribers.Completion<TestError>.finished, .failure(.oops)] {
            let upstream = TestPublisher<HeldPublisher<Int, TestError>, TestError>()
            let recorder = upstream.switchToLatest().record(initialDemand: .unlimited)
            let inner = HeldPublisher<Int, TestError>()
            upstream.send(inner)
            upstream.send(completion: completion)
            let late = TestPublisher<Int, TestError>()
            late.subscribe(try #require(inner.subscriber))
            #expect(late.events == [.subscribe, .request(.unlimited)])
            #expect(recorder.completions == (completion == .finished ? [] : [completion]))
        }
    }

    @Test func anInnerValueBeyondDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<TestPublisher<Int, TestError>, TestError>()
            _ = upstream.switchToLatest().record(initialDemand: nil)
            let inner = TestPublisher<Int, TestError>()
            upstream.send(inner)
            inner.send(-1)
        }
        expectTrapMessage(
            result,
            contains:
                "SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand")
    }

    @Test func anInnerCompletionBeforeItsSubscriptionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<HeldPublisher<Int, TestError>, TestError>()
            _ = upstream.switchToLatest().record()
            let inner = HeldPublisher<Int, TestError>()
            upstream.send(inner)
            inner.subscriber?.receive(completion: .failure(.oops))
        }
        expectTrapMessage(
            result, contains: "SwitchToLatest's inner publisher completed before sending its subscription")
    }

    /// Upstream's subscriber is the subscription downstream got, as in Combine; an inner
    /// publisher's subscriber names its parent.
    @Test func introspection() throws {
        let upstream = HeldPublisher<HeldPublisher<Int, TestError>, TestError>()
        let recorder = upstream.switchToLatest().record()
        let outer = try #require(upstream.subscriberAsSubscription)
        #expect(outer.combineIdentifier == recorder.subscription?.combineIdentifier)
        upstream.subscriber?.receive(subscription: Subscriptions.empty)
        let inner = HeldPublisher<Int, TestError>()
        _ = upstream.subscriber?.receive(inner)
        let side = try #require(inner.subscriber)
        #expect(inner.subscriberAsSubscription == nil)
        #expect(String(describing: side) == "SwitchToLatest")
        let children = Mirror(reflecting: side).children.map { "\($0.label ?? ""): \($0.value)" }
        #expect(children == ["parentSubscription: \(outer.combineIdentifier)"])
    }

    /// Downstream switching the inner publisher from inside `receive`: delivery stays serial.
    @Test func reentrantSwitchFromInsideReceive() {
        let upstream = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let recorder = upstream.switchToLatest().record()
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if value == 1 { upstream.send([10, 11].publisher.eraseToAnyPublisher()) }
            depth -= 1
        }
        upstream.send(first.eraseToAnyPublisher())
        first.send(1)
        first.send(2)
        #expect(recorder.values == [1, 10, 11])
        #expect(maxDepth == 1)
        upstream.send(completion: .finished)
        #expect(recorder.completions == [.finished])
    }

    @Test func operatorLaws() {
        OperatorLaws.check { $0.map { Just($0) }.switchToLatest() }
        OperatorLaws.check { $0.map { [$0, $0 + 1].publisher }.switchToLatest() }
    }

    // MARK: One-shot inner publishers (Sluice takes them without a subscription)

    static func runOneShotScenario<P: Publisher>(_ make: @escaping (Int) -> P) -> [String]
    where P.Output == Int, P.Failure == TestError {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.map(make).switchToLatest().record(initialDemand: nil, demandPerValue: .max(1))
        upstream.send(1)
        upstream.send(2)
        // Only the latest one is asked, and only now.
        recorder.request(.max(1))
        upstream.send(3)
        upstream.send(4)
        recorder.request(.max(1))
        upstream.send(5)
        upstream.send(completion: .finished)
        return recorder.trace
    }

    @Test func justInnerBehavesLikeASubscribedInnerIncludingDemand() {
        var pulled: [Int] = []
        let fast = Self.runOneShotScenario { value in
            Just(value).map {
                pulled.append($0); return $0
            }.setFailureType(to: TestError.self)
        }
        let fastPulled = pulled
        pulled = []
        let slow = Self.runOneShotScenario { value in
            Just(value).map {
                pulled.append($0); return $0
            }.setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        // 1 is replaced before any demand; 2 waits for the first request; each value returns one
        // more demand, so 3, 4 and 5 are delivered as they arrive.
        #expect(fast == ["subscription", "value(2)", "value(3)", "value(4)", "value(5)", "finished"])
        #expect(fast == slow)
        #expect(fastPulled == pulled)
    }

    @Test func parkedJustIsReplacedWithoutDelivery() {
        for erase in [false, true] {
            let upstream = PassthroughSubject<Int, Never>()
            let recorder: RecordingSubscriber<Int, Never>
            if erase {
                recorder = upstream.map { Just($0).eraseToAnyPublisher() }.switchToLatest().record(initialDemand: nil)
            } else {
                recorder = upstream.map { Just($0) }.switchToLatest().record(initialDemand: nil)
            }
            upstream.send(1)
            upstream.send(2)
            upstream.send(completion: .finished)
            #expect(recorder.events == [.subscription])
            recorder.request(.max(3))
            #expect(recorder.events == [.subscription, .value(2), .finished])
        }
    }

    @Test func otherOneShotInners() {
        let empty = Self.runOneShotScenario { _ in Empty<Int, TestError>() }
        #expect(empty == ["subscription", "finished"])
        #expect(empty == Self.runOneShotScenario { _ in Empty<Int, TestError>().eraseToAnyPublisher() })

        let fail = Self.runOneShotScenario { value in FlatMapTests.result(value).publisher }
        #expect(fail == ["subscription", "value(2)", "failure(oops)"])
        #expect(
            fail
                == Self.runOneShotScenario { value in
                    FlatMapTests.result(value).publisher.eraseToAnyPublisher()
                })

        let optional = Self.runOneShotScenario { ($0 % 2 == 1 ? $0 : nil).publisher.setFailureType(to: TestError.self) }
        #expect(optional == ["subscription", "value(3)", "value(5)", "finished"])
        #expect(
            optional
                == Self.runOneShotScenario {
                    ($0 % 2 == 1 ? $0 : nil).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
                })

        let failingUpstream = TestPublisher<Int, TestError>()
        let recorder = failingUpstream.map { _ in Fail<Int, TestError>(error: .other) }.switchToLatest().record()
        failingUpstream.send(1)
        #expect(recorder.events == [.subscription, .failure(.other)])
        #expect(failingUpstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func emptyThatNeverCompletesKeepsTheStreamOpenUntilReplaced() {
        let upstream = PassthroughSubject<Bool, Never>()
        let recorder = upstream.map { Empty<Int, Never>(completeImmediately: $0) }.switchToLatest().record()
        upstream.send(false)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        let second = PassthroughSubject<Bool, Never>()
        let other = second.map { Empty<Int, Never>(completeImmediately: $0) }.switchToLatest().record()
        second.send(false)
        second.send(true)
        second.send(completion: .finished)
        #expect(other.events == [.subscription, .finished])
    }

    // MARK: Failure-type overloads

    @Test func failureTypeOverloads() {
        let sameFailure = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
        let upstreamNever = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let innerNever = PassthroughSubject<Just<Int>, TestError>()
        let bothNever = PassthroughSubject<Just<Int>, Never>()

        let a:
            Publishers.SwitchToLatest<
                PassthroughSubject<Int, TestError>, PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>
            > =
                sameFailure.switchToLatest()
        let b:
            Publishers.SwitchToLatest<
                PassthroughSubject<Int, TestError>,
                Publishers.SetFailureType<PassthroughSubject<PassthroughSubject<Int, TestError>, Never>, TestError>
            > =
                upstreamNever.switchToLatest()
        let c:
            Publishers.SwitchToLatest<
                Publishers.SetFailureType<Just<Int>, TestError>,
                Publishers.Map<
                    PassthroughSubject<Just<Int>, TestError>, Publishers.SetFailureType<Just<Int>, TestError>
                >
            > = innerNever.switchToLatest()
        let d: Publishers.SwitchToLatest<Just<Int>, PassthroughSubject<Just<Int>, Never>> = bothNever.switchToLatest()

        let ra = a.record()
        let rb = b.record()
        let rc = c.record()
        let rd = d.record()
        let inner = PassthroughSubject<Int, TestError>()
        sameFailure.send(inner)
        upstreamNever.send(inner)
        inner.send(1)
        inner.send(completion: .failure(.oops))
        innerNever.send(Just(2))
        innerNever.send(completion: .failure(.other))
        bothNever.send(Just(3))
        bothNever.send(completion: .finished)
        #expect(ra.events == [.subscription, .value(1), .failure(.oops)])
        #expect(rb.events == [.subscription, .value(1), .failure(.oops)])
        #expect(rc.events == [.subscription, .value(2), .failure(.other)])
        #expect(rd.events == [.subscription, .value(3), .finished])
        #expect(c.upstream.transform(Just(4)).upstream.output == 4)
    }

    // MARK: Threads

    /// New inner subjects arrive while old and new ones send from several threads: deliveries
    /// never overlap, no value is duplicated, and there is one completion.
    @Test func innerSubjectsSentFromSeveralThreadsWhileSwitching() {
        let threads = 4
        let perThread = 20_000
        let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inners = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = ThreadedFlatMapRecorder(inners: threads)
        let duplicates = SeenValues()
        recorder.onValue = { duplicates.insert($0) }
        upstream.switchToLatest().subscribe(recorder)
        upstream.send(inners[0])
        let box = UncheckedBox(inners)
        let source = UncheckedBox(upstream)
        DispatchQueue.concurrentPerform(iterations: threads + 1) { worker in
            if worker == threads {
                for index in 1..<threads { source.value.send(box.value[index]) }
                source.value.send(completion: .finished)
            } else {
                for value in 0..<perThread { box.value[worker].send(worker * 1_000_000 + value) }
                box.value[worker].send(completion: .finished)
            }
        }
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(duplicates.duplicates == 0)
        #expect(recorder.received.load(ordering: .relaxed) <= threads * perThread)
        // The last inner publisher is never replaced, so it completes the stream.
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0)
    }
}

/// Records values seen from several threads and counts repeats.
final class SeenValues: @unchecked Sendable {
    private let lock = TestLock<Set<Int>>([])
    private let repeats = Atomic<Int>(0)

    func insert(_ value: Int) {
        let inserted = lock.withLock { $0.insert(value).inserted }
        if !inserted { repeats.add(1, ordering: .relaxed) }
    }

    var duplicates: Int { repeats.load(ordering: .relaxed) }
}
