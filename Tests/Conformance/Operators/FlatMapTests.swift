// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

@Suite struct FlatMapTests {
    typealias Inner = TestPublisher<Int, TestError>

    /// Upstream sends inner publishers by number; `inners[i]` is the i-th.
    static func makeInners(_ count: Int) -> [Inner] { (0..<count).map { _ in Inner() } }

    @Test func valuesFromEveryInnerAndCompletionAfterAll() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record()
        #expect(recorder.subscriptionDescriptions == ["FlatMap"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].events == [.subscribe, .request(.unlimited)])
        #expect(inners[1].events == [.subscribe, .request(.unlimited)])
        #expect(inners[0].send(10) == .none)
        #expect(inners[1].send(20) == .none)
        inners[0].send(11)
        inners[0].send(completion: .finished)
        upstream.send(completion: .finished)
        // Inner completions are swallowed; the stream waits for the last inner publisher.
        #expect(recorder.events == [.subscription, .value(10), .value(20), .value(11)])
        inners[1].send(21)
        inners[1].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(10), .value(20), .value(11), .value(21), .finished])
    }

    /// flatMaps nested 10,000 deep (a recursive pipeline) keep a bounded stack: past 32 nested
    /// subscriptions, deliveries and completions, the deepest continues the rest in a loop. Every
    /// value arrives, in order, under demand asked one value at a time, and so does a failure.
    @Test func flatMapsNestedTenThousandDeepKeepABoundedStack() {
        func nested(_ depth: Int, innermost: AnyPublisher<Int, TestError>) -> AnyPublisher<Int, TestError> {
            guard depth > 0 else { return innermost }
            return Just(depth).setFailureType(to: TestError.self)
                .flatMap { _ in nested(depth - 1, innermost: innermost) }.eraseToAnyPublisher()
        }
        let values = [1, 2, 3].publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
        let recorder = nested(10_000, innermost: values).record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completions == [.finished])
        let failing = Fail<Int, TestError>(error: .oops).eraseToAnyPublisher()
        let failed = nested(10_000, innermost: failing).record()
        #expect(failed.values == [])
        #expect(failed.completions == [.failure(.oops)])
    }

    @Test func sequencesOfSequencesOneByOneKeepToDemandMadeAfterTheSubscription() {
        let recorder = [0, 0].publisher.flatMap(maxPublishers: .max(1)) { [$0, $0 + 1].publisher }
            .record(initialDemand: nil)
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(0)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(0), .value(1), .finished])
        let unlimitedFromReceive = [0, 0].publisher.flatMap(maxPublishers: .max(1)) { [$0, $0 + 1].publisher }
            .record(initialDemand: nil, demandPerValue: .unlimited)
        unlimitedFromReceive.request(.max(3))
        #expect(
            unlimitedFromReceive.events == [.subscription, .value(0), .value(1), .value(0), .value(1), .finished],
            "the demand a value returns counts")
    }

    @Test func innerPublishersAskedForOneValueAreAskedAgainWhenAReturnedDemandMakesItUnlimited() {
        // Both inner publishers were asked for one value while there was no demand; the first
        // value delivered returns `.unlimited`: each waiting one is asked for its next value.
        let recorder = [0, 0].publisher.flatMap { [$0, $0 + 1].publisher }
            .record(initialDemand: nil, demandPerValue: .unlimited)
        recorder.request(.max(3))
        #expect(recorder.values.sorted() == [0, 0, 1, 1])
        #expect(recorder.completions.count == 1)
    }

    @Test func sequencesOneByOneWithMaxPublishers() {
        let recorder = (1..<4).publisher.flatMap(maxPublishers: .max(2)) { i in (i..<i + 3).publisher }
            .record(initialDemand: .max(1), demandPerValue: .max(1))
        #expect(recorder.values == [1, 2, 3, 2, 3, 4, 3, 4, 5])
        #expect(recorder.completions == [.finished])
    }

    /// Upstream is asked for `maxPublishers`, and for one more each time an inner publisher finishes.
    @Test func maxPublishersTraffic() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(3)
        let recorder = upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.record(initialDemand: .max(5))
        #expect(upstream.events == [.subscribe, .request(.max(2))])
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].events == [.subscribe, .request(.max(1))])
        #expect(inners[1].events == [.subscribe, .request(.max(1))])
        inners[1].send(completion: .finished)
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(1))])
        upstream.send(2)
        #expect(inners[2].events == [.subscribe, .request(.max(1))])
        inners[0].send(completion: .finished)
        inners[2].send(completion: .finished)
        #expect(
            upstream.events == [.subscribe, .request(.max(2)), .request(.max(1)), .request(.max(1)), .request(.max(1))])
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    /// Inner publishers get one request at a time while downstream's demand is limited; a value
    /// sent without demand waits, and its publisher is asked again when it is delivered.
    @Test func innerDemandFollowsDownstreamDemand() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(2))
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].send(1) == .max(1))
        #expect(inners[0].send(2) == .max(1))
        // No demand left: buffered, nothing asked.
        #expect(inners[0].send(3) == .none)
        #expect(inners[1].send(4) == .none)
        #expect(recorder.values == [1, 2])
        recorder.request(.max(10))
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(inners[0].events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(inners[1].events == [.subscribe, .request(.max(1)), .request(.max(1))])
        recorder.request(.unlimited)
        #expect(inners[0].events.last == .request(.unlimited))
        #expect(inners[1].events.last == .request(.unlimited))
        #expect(inners[1].send(5) == .none)
        #expect(recorder.values == [1, 2, 3, 4, 5])
    }

    @Test func bufferedValuesDelayTheCompletion() {
        let upstream = TestPublisher<Int, TestError>()
        let inner = Inner()
        let recorder = upstream.flatMap { _ in inner }.record(initialDemand: .max(1))
        upstream.send(0)
        inner.send(1)
        inner.send(2)
        upstream.send(completion: .finished)
        inner.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    /// A value sent from inside downstream's `receive` is delivered after it returns, not nested.
    @Test func reentrantValueIsDeliveredAfterTheCurrentOne() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(2))
        upstream.send(0)
        upstream.send(1)
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if value == 1 { inners[1].send(2) }
            depth -= 1
        }
        #expect(inners[0].send(1) == .max(1))
        #expect(recorder.values == [1, 2])
        #expect(maxDepth == 1)
        #expect(inners[1].events == [.subscribe, .request(.max(1))])
    }

    @Test func requestFromInsideReceiveDoesNotRecurse() {
        let upstream = TestPublisher<Int, TestError>()
        let inner = Inner()
        let recorder = upstream.flatMap(maxPublishers: .max(1)) { _ in inner }.record(initialDemand: .max(1))
        recorder.onValue = { value in if value == 0 { recorder.request(.max(3)) } }
        upstream.send(0)
        for value in 0..<4 { #expect(inner.send(value) == .max(1)) }
        #expect(inner.send(4) == .none)
        #expect(recorder.values == [0, 1, 2, 3])
        recorder.request(.max(1))
        #expect(recorder.values == [0, 1, 2, 3, 4])
        #expect(inner.events == [.subscribe, .request(.max(1)), .request(.max(1))])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record(cancelAfterValues: 1)
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].send(1) == .none)
        inners[1].sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(inners[0].events.last == .cancel)
        #expect(inners[1].events.last == .cancel)
        #expect(upstream.events.last == .cancel)
    }

    @Test func cancelReachesEveryInnerAndUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(3)
        let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(42))
        upstream.send(0)
        upstream.send(1)
        upstream.send(2)
        inners[1].send(completion: .finished)
        recorder.cancel()
        #expect(inners[0].events == [.subscribe, .request(.max(1)), .cancel])
        #expect(inners[1].events == [.subscribe, .request(.max(1))])
        #expect(inners[2].events == [.subscribe, .request(.max(1)), .cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        inners[0].sendKeepingSubscriber(1)
        upstream.sendKeepingSubscriber(0)
        #expect(recorder.events == [.subscription])
    }

    /// As in Combine: an inner failure cancels the other inner publishers; upstream is left alone.
    @Test func innerFailureCancelsTheOtherInners() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(3)
        var transforms = 0
        let recorder = upstream.flatMap { index -> Inner in
            transforms += 1
            return inners[index]
        }.record()
        upstream.send(0)
        upstream.send(1)
        upstream.send(2)
        inners[1].send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .failure(.oops)])
        #expect(inners[0].events == [.subscribe, .request(.unlimited), .cancel])
        #expect(inners[1].events == [.subscribe, .request(.unlimited)])
        #expect(inners[2].events == [.subscribe, .request(.unlimited), .cancel])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        inners[2].sendKeepingSubscriber(completion: .failure(.other))
        upstream.send(0)
        #expect(transforms == 3)
        #expect(recorder.events == [.subscription, .failure(.oops)])
    }

    /// Another inner publisher fails while a value is being delivered, and downstream cancels from
    /// inside that same `receive`: once its cancel has returned, it hears nothing more (Combine
    /// delivers the failure re-entrantly, before the cancel; Sluice defers it, and the cancel then
    /// drops it).
    @Test func aFailureDuringADeliveryIsNotDeliveredAfterACancelFromInsideIt() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record()
        var eventsAtCancel: Int?
        recorder.onValue = { _ in
            inners[1].send(completion: .failure(.oops))
            recorder.cancel()
            eventsAtCancel = recorder.events.count
        }
        upstream.send(0)
        upstream.send(1)
        #expect(inners[0].send(1) == .none)
        #expect(recorder.events.count == eventsAtCancel)
        #expect(Array(recorder.events.prefix(2)) == [.subscription, .value(1)])
        #expect(inners[0].events.last == .cancel)
    }

    @Test func upstreamFailureCancelsTheInnersAndDropsBufferedValues() {
        let upstream = TestPublisher<Int, TestError>()
        let inners = Self.makeInners(2)
        let recorder = upstream.flatMap { inners[$0] }.record(initialDemand: .max(1))
        upstream.send(0)
        upstream.send(1)
        inners[0].send(1)
        inners[1].send(2)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
        #expect(inners[0].events.last == .cancel)
        #expect(inners[1].events.last == .cancel)
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    @Test func operatorLaws() {
        OperatorLaws.check { $0.flatMap { Just($0 * 2) } }
        OperatorLaws.check { $0.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher } }
    }

    // MARK: One-shot inner publishers (Sluice takes them without a subscription)

    /// The scenario for comparing a one-shot inner publisher with the same one behind `AnyPublisher`.
    static func runOneShotScenario<Q: Publisher>(_ build: (TestPublisher<Int, TestError>) -> Q)
        -> (downstream: [String], upstream: [TestPublisher<Int, TestError>.Event])
    where Q.Output == Int, Q.Failure == TestError {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = build(upstream).record(initialDemand: .max(1), demandPerValue: .none)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        recorder.request(.max(1))
        upstream.send(4)
        recorder.request(.max(5))
        upstream.send(completion: .finished)
        return (recorder.trace, upstream.events)
    }

    static func result(_ value: Int) -> Result<Int, TestError> { value == 3 ? .failure(.oops) : .success(value) }

    @Test func justInnerBehavesLikeASubscribedInnerIncludingDemand() {
        let fast = Self.runOneShotScenario { $0.flatMap(maxPublishers: .max(2)) { Just($0) } }
        let slow = Self.runOneShotScenario { $0.flatMap(maxPublishers: .max(2)) { Just($0).eraseToAnyPublisher() } }
        // Value 1 uses the demand; 2 and 3 wait; each Just finishes at once and frees its slot.
        #expect(fast.downstream == ["subscription", "value(1)", "value(2)", "value(3)", "value(4)", "finished"])
        #expect(
            fast.upstream == [
                .subscribe, .request(.max(2)), .request(.max(1)), .request(.max(1)), .request(.max(1)),
                .request(.max(1)),
            ])
        #expect(fast.downstream == slow.downstream)
        #expect(fast.upstream == slow.upstream)

        // Upstream and inner of the same failure type: the Just is behind `setFailureType`'s stage.
        let staged = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just($0)) }
        }
        #expect(staged.downstream == fast.downstream)
        #expect(staged.upstream == fast.upstream)
    }

    @Test func otherOneShotInnersBehaveLikeSubscribedOnes() {
        let optional = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { ($0 % 2 == 0 ? $0 : nil).publisher }
        }
        let optionalSlow = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { ($0 % 2 == 0 ? $0 : nil).publisher.eraseToAnyPublisher() }
        }
        #expect(optional.downstream == ["subscription", "value(2)", "value(4)", "finished"])
        #expect(optional.downstream == optionalSlow.downstream)
        #expect(optional.upstream == optionalSlow.upstream)

        let empty = Self.runOneShotScenario { $0.flatMap(maxPublishers: .max(2)) { _ in Empty<Int, TestError>() } }
        let emptySlow = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { _ in Empty<Int, TestError>().eraseToAnyPublisher() }
        }
        #expect(empty.downstream == ["subscription", "finished"])
        #expect(empty.downstream == emptySlow.downstream)
        #expect(empty.upstream == emptySlow.upstream)

        // Value 3 fails: as in Combine, upstream is not cancelled.
        let result = Self.runOneShotScenario { $0.flatMap(maxPublishers: .max(2)) { Self.result($0).publisher } }
        let resultSlow = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { Self.result($0).publisher.eraseToAnyPublisher() }
        }
        #expect(result.downstream == ["subscription", "value(1)", "failure(oops)"])
        #expect(result.upstream == [.subscribe, .request(.max(2)), .request(.max(1)), .request(.max(1))])
        #expect(result.downstream == resultSlow.downstream)
        #expect(result.upstream == resultSlow.upstream)

        let fail = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { _ in Fail<Int, TestError>(error: .other) }
        }
        let failSlow = Self.runOneShotScenario {
            $0.flatMap(maxPublishers: .max(2)) { _ in Fail<Int, TestError>(error: .other).eraseToAnyPublisher() }
        }
        #expect(fail.downstream == ["subscription", "failure(other)"])
        #expect(fail.downstream == failSlow.downstream)
        #expect(fail.upstream == failSlow.upstream)
    }

    @Test func emptyThatNeverCompletesKeepsTheStreamOpen() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.flatMap(maxPublishers: .max(1)) { _ in Empty<Int, TestError>(completeImmediately: false)
        }.record()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    // MARK: Failure-type overloads

    @Test func failureTypeOverloads() {
        let never = PassthroughSubject<Int, Never>()
        let failing = PassthroughSubject<Int, TestError>()

        let upstreamNever:
            Publishers.FlatMap<
                Fail<Int, TestError>, Publishers.SetFailureType<PassthroughSubject<Int, Never>, TestError>
            > =
                never.flatMap { _ in Fail<Int, TestError>(error: .oops) }
        let innerNever:
            Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, TestError>, PassthroughSubject<Int, TestError>> =
                failing.flatMap { Just($0) }
        let bothNever: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = never.flatMap { Just($0) }
        let same: Publishers.FlatMap<PassthroughSubject<Int, TestError>, PassthroughSubject<Int, TestError>> =
            failing.flatMap { _ in failing }
        #expect(same.maxPublishers == .unlimited)

        let a = upstreamNever.record()
        let b = innerNever.record()
        let c = bothNever.record()
        never.send(1)
        failing.send(2)
        #expect(a.events == [.subscription, .failure(.oops)])
        #expect(b.events == [.subscription, .value(2)])
        #expect(c.events == [.subscription, .value(1)])
        #expect(innerNever.transform(5).upstream.output == 5)
    }

    // MARK: Threads

    @Test func innerSubjectsSentFromSeveralThreads() {
        let threads = 4
        let perThread = 20_000
        let upstream = PassthroughSubject<Int, Never>()
        let inners = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = ThreadedFlatMapRecorder(inners: threads)
        upstream.flatMap { inners[$0] }.subscribe(recorder)
        for index in 0..<threads { upstream.send(index) }
        upstream.send(completion: .finished)
        let box = UncheckedBox(inners)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { box.value[index].send(index * 1_000_000 + value) }
            box.value[index].send(completion: .finished)
        }
        #expect(recorder.received.load(ordering: .relaxed) == threads * perThread)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
        #expect(recorder.afterCompletion.load(ordering: .relaxed) == 0)
    }

    @Test func limitedDemandFromAnotherThreadWhileInnersSend() {
        let threads = 3
        let perThread = 5_000
        let upstream = PassthroughSubject<Int, Never>()
        // Each inner publisher is a synchronous source that waits for demand, so no value is dropped.
        let recorder = ThreadedFlatMapRecorder(inners: threads, initialDemand: .none)
        let source = UncheckedBox(upstream)
        upstream.flatMap { index in ((index * 1_000_000)..<(index * 1_000_000 + perThread)).publisher }.subscribe(
            recorder)
        let subscription = UncheckedBox(recorder.subscription!)
        DispatchQueue.concurrentPerform(iterations: threads + 1) { worker in
            if worker == threads {
                for index in 0..<threads { source.value.send(index) }
                source.value.send(completion: .finished)
            } else {
                for _ in 0..<perThread { subscription.value.request(.max(1)) }
            }
        }
        #expect(recorder.received.load(ordering: .relaxed) == threads * perThread)
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0)
        #expect(recorder.outOfOrder.load(ordering: .relaxed) == 0)
        #expect(recorder.completions.load(ordering: .relaxed) == 1)
    }
}

/// Hands a non-Sendable value to other threads on purpose (subjects and subscriptions are thread-safe).

/// Counts what arrives from several threads: no overlapping calls, each inner publisher's values
/// in order (value = inner * 1_000_000 + i), one completion.
final class ThreadedFlatMapRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let inFlight = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let received = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    let outOfOrder = Atomic<Int>(0)
    let afterCompletion = Atomic<Int>(0)
    private let initialDemand: Subscribers.Demand
    /// Only touched inside calls that must never overlap.
    private var last: [Int]
    private(set) var subscription: (any Subscription)?
    /// Runs inside `receive`; set before subscribing.
    var onValue: ((Int) -> Void)?

    init(inners: Int, initialDemand: Subscribers.Demand = .unlimited) {
        last = Array(repeating: -1, count: inners)
        self.initialDemand = initialDemand
    }

    private func enter() {
        if inFlight.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
    }

    private func leave() { inFlight.store(false, ordering: .releasing) }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand != .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter()
        defer { leave() }
        if completions.load(ordering: .relaxed) > 0 { afterCompletion.add(1, ordering: .relaxed) }
        let inner = input / 1_000_000
        let index = input % 1_000_000
        if index != last[inner] + 1 { outOfOrder.add(1, ordering: .relaxed) }
        last[inner] = index
        onValue?(input)
        received.add(1, ordering: .relaxed)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        completions.add(1, ordering: .relaxed)
        leave()
    }
}
