// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import Synchronization
import Testing

#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

// The rule for an operator that hops signals to a scheduler, here on concurrent ones, which may run
// the scheduled actions in any order and at the same time: the operator keeps the order. Every
// value sent before the completion arrives before it, in the order sent, one at a time (never two
// calls downstream at once), then exactly one completion, and nothing after it.
//
// Values are tagged with their producer (`producer * tagBase + index`, index from 1): several
// producers send into one subject at once, and the order is each producer's.
//
// The first call downstream (upstream, for `subscribe(on:)`) waits at a gate until the first
// producer has sent half its values, so that actions pile up and run while a call is in flight on
// every scheduler. The tests wait asynchronously: a test blocking its thread would hold one of the
// pool's threads, which Dispatch's queues share (2 on a 2-core machine).

/// The concurrent schedulers the rule is checked on.
enum ConcurrentVenue: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case concurrentQueue
    case globalQueue
    case operationQueue

    var testDescription: String {
        switch self {
        case .concurrentQueue: "a concurrent DispatchQueue"
        case .globalQueue: "DispatchQueue.global()"
        case .operationQueue: "an OperationQueue running 4 operations at once"
        }
    }

    /// Runs `scenario` on a new scheduler of this kind.
    func run(_ scenario: some ConcurrentScenario) async {
        switch self {
        case .concurrentQueue:
            await scenario.run(on: DispatchQueue(label: "sluice.tests.concurrent", attributes: .concurrent))
        case .globalQueue:
            await scenario.run(on: DispatchQueue.global())
        case .operationQueue:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            await scenario.run(on: queue)
        }
    }
}

/// A test body written once for every scheduler type.
protocol ConcurrentScenario {
    func run<S: Scheduler>(on scheduler: S) async
}

private let tagBase = 1_000_000

/// Each producer's indices, in the order they arrived.
private func byProducer(_ values: [Int]) -> [Int: [Int]] {
    Dictionary(grouping: values, by: { $0 / tagBase }).mapValues { $0.map { $0 % tagBase } }
}

/// Holds the first call that passes it until it is opened.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let isFirst = Atomic<Bool>(true)
    private let isOpen = Atomic<Bool>(false)

    /// The first caller waits here until `open()` (at most 10 s); the others pass.
    func pass() {
        guard isFirst.exchange(false, ordering: .acquiringAndReleasing) else { return }
        _ = semaphore.wait(timeout: .now() + 10)
    }

    func open() {
        if !isOpen.exchange(true, ordering: .acquiringAndReleasing) { semaphore.signal() }
    }
}

/// Makes `count` calls split between `producers` threads of their own, all at once, each call with
/// its producer's tag; `pace(index)` runs after each. The first producer opens `gate` halfway.
private func makeCalls(
    _ count: Int, producers: Int, gate: Gate, pace: @escaping @Sendable (Int) -> Void = { _ in },
    _ call: @escaping @Sendable (Int) -> Void
) async {
    let perProducer = count / producers
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        _ = onAnotherThread {
            onThreads(producers) { producer in
                for index in 1...perProducer {
                    call(producer * tagBase + index)
                    pace(index)
                    if producer == 0, index == perProducer / 2 { gate.open() }
                }
            }
            gate.open()
            done.resume()
        }
    }
}

/// Lets actions still on their way arrive, so that anything late is seen.
private func settle() async {
    try? await Task.sleep(for: .milliseconds(5))
}

/// A subscriber that keeps what arrives and counts calls into it that overlap (an atomic in-flight
/// counter) and anything after the completion. Its first call waits at `gate`.
private final class HopRecorder<Input: Sendable>: Subscriber, @unchecked Sendable {
    typealias Failure = Never

    private struct Record {
        var values: [Input] = []
        var completions = 0
        var afterCompletion = 0
    }

    let gate = Gate()
    let overlaps = Atomic<Int>(0)
    private let inFlight = Atomic<Int>(0)
    private let record = TestLock(Record())

    private func enter() {
        if inFlight.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
        gate.pass()
    }

    private func leave() { inFlight.subtract(1, ordering: .acquiringAndReleasing) }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        defer { leave() }
        record.withLock { record in
            if record.completions > 0 { record.afterCompletion += 1 }
            record.values.append(input)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter()
        defer { leave() }
        record.withLock { $0.completions += 1 }
    }

    /// Waits for the completion (30 s at most, a guard against a hang), then for stragglers.
    func completed() async -> Bool {
        let completed = await eventually { record.withLock { $0.completions > 0 } }
        await settle()
        return completed
    }

    var values: [Input] { record.withLock { $0.values } }
    var completions: Int { record.withLock { $0.completions } }
    var afterCompletion: Int { record.withLock { $0.afterCompletion } }
}

/// The subject, handed to the producer threads (subjects are thread-safe; Combine's API does not
/// say so).
private struct Source: @unchecked Sendable {
    let subject = PassthroughSubject<Int, Never>()

    func send(_ count: Int, producers: Int, gate: Gate, pace: @escaping @Sendable (Int) -> Void = { _ in }) async {
        await makeCalls(count, producers: producers, gate: gate, pace: pace) { subject.send($0) }
    }

    func finish() { subject.send(completion: .finished) }
}

/// Checks what `recorder` got: one completion, last, no overlapping calls; every producer's values
/// in increasing order, each at most once; with `lossless`, all of them.
private func expectTheRule(
    _ recorder: HopRecorder<Int>, producers: Int, perProducer: Int, lossless: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(recorder.completions == 1, sourceLocation: sourceLocation)
    #expect(recorder.afterCompletion == 0, "values after the completion", sourceLocation: sourceLocation)
    #expect(recorder.overlaps.load(ordering: .relaxed) == 0, "overlapping calls", sourceLocation: sourceLocation)
    let arrived = byProducer(recorder.values)
    #expect(arrived.keys.allSatisfy { (0..<producers).contains($0) }, sourceLocation: sourceLocation)
    for producer in 0..<producers {
        let indices = arrived[producer] ?? []
        let inOrder = zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 }
        #expect(inOrder, "producer \(producer): out of order or repeated", sourceLocation: sourceLocation)
        if lossless {
            #expect(
                indices.count == perProducer && indices.last == perProducer,
                "producer \(producer): \(indices.count) of \(perProducer) values", sourceLocation: sourceLocation)
        }
    }
}

/// The operators under test that deliver what they receive.
private enum HopOperator {
    case receiveOn
    case delay
    /// A timeout that does not fire: the values and upstream's completion hop.
    case timeout
    case debounce
    case throttle(latest: Bool)

    func apply<S: Scheduler>(to upstream: PassthroughSubject<Int, Never>, on scheduler: S)
        -> AnyPublisher<Int, Never>
    {
        switch self {
        case .receiveOn:
            upstream.receive(on: scheduler).eraseToAnyPublisher()
        case .delay:
            upstream.delay(for: .milliseconds(1), scheduler: scheduler).eraseToAnyPublisher()
        case .timeout:
            upstream.timeout(.seconds(60), scheduler: scheduler).eraseToAnyPublisher()
        case .debounce:
            upstream.debounce(for: .microseconds(300), scheduler: scheduler).eraseToAnyPublisher()
        case .throttle(let latest):
            upstream.throttle(for: .microseconds(200), scheduler: scheduler, latest: latest).eraseToAnyPublisher()
        }
    }

    /// Whether every value sent reaches downstream.
    var isLossless: Bool {
        switch self {
        case .receiveOn, .delay, .timeout: true
        case .debounce, .throttle: false
        }
    }

    /// How many values a run sends: fewer for the timeout, which starts a timer for each, and for
    /// the operators that drop most of them, which need gaps between the values to deliver any.
    var total: Int {
        switch self {
        case .receiveOn, .delay: 20_000
        case .timeout: 2_000
        case .debounce, .throttle: 1_200
        }
    }

    /// Runs after each send: a pause every 8 values for the operators that need gaps.
    var pace: @Sendable (Int) -> Void {
        if isLossless { return { _ in } }
        return { index in
            if index % 8 == 0 { Thread.sleep(forTimeInterval: 0.0004) }
        }
    }
}

/// Values from `producers` threads, then the completion, through `operation`.
private struct ValuesThenCompletion: ConcurrentScenario {
    let operation: HopOperator
    let producers: Int

    func run<S: Scheduler>(on scheduler: S) async {
        let source = Source()
        let recorder = HopRecorder<Int>()
        operation.apply(to: source.subject, on: scheduler).subscribe(recorder)
        await source.send(operation.total, producers: producers, gate: recorder.gate, pace: operation.pace)
        source.finish()
        #expect(await recorder.completed(), "no completion")
        expectTheRule(
            recorder, producers: producers, perProducer: operation.total / producers, lossless: operation.isLossless)
    }
}

/// Values from `producers` threads, then silence until the timeout ends the stream.
private struct ValuesThenTimeout: ConcurrentScenario {
    let producers: Int

    func run<S: Scheduler>(on scheduler: S) async {
        let source = Source()
        let recorder = HopRecorder<Int>()
        let total = 2_000
        source.subject.timeout(.milliseconds(5), scheduler: scheduler).subscribe(recorder)
        await source.send(total, producers: producers, gate: recorder.gate)
        #expect(await recorder.completed(), "no completion")
        expectTheRule(recorder, producers: producers, perProducer: total / producers, lossless: false)
        // A value the timeout took in before it fired is delivered before the completion, and the
        // timeout ignores every value after it: what each producer got through is a prefix.
        for (producer, indices) in byProducer(recorder.values) {
            #expect(indices == Array(1...indices.count), "producer \(producer): not a prefix")
        }
    }
}

/// Values from `producers` threads, then the completion, through `collect(.byTimeOrCount)`: the
/// arrays closed before the completion go out before it.
private struct CollectedValuesThenCompletion: ConcurrentScenario {
    let producers: Int

    func run<S: Scheduler>(on scheduler: S) async {
        let source = Source()
        let recorder = HopRecorder<[Int]>()
        let total = 10_000
        let count = 7
        source.subject.collect(.byTimeOrCount(scheduler, .microseconds(500), count)).subscribe(recorder)
        await source.send(total, producers: producers, gate: recorder.gate)
        source.finish()
        #expect(await recorder.completed(), "no completion")
        let groups = recorder.values
        #expect(groups.allSatisfy { !$0.isEmpty && $0.count <= count })
        #expect(recorder.completions == 1)
        #expect(recorder.afterCompletion == 0, "arrays after the completion")
        #expect(recorder.overlaps.load(ordering: .relaxed) == 0, "overlapping calls")
        let arrived = byProducer(groups.flatMap { $0 })
        for producer in 0..<producers {
            #expect(arrived[producer] == Array(1...(total / producers)), "producer \(producer)")
        }
    }
}

/// Requests from `producers` threads, then a cancel, through `subscribe(on:)`: upstream hears each
/// request once, in the order each producer made them, one call at a time, and the cancel last.
private struct RequestsThenCancel: ConcurrentScenario {
    let producers: Int

    /// An upstream that records the calls its subscription gets; the first waits at `gate`.
    final class Upstream: Publisher, Subscription, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Never

        enum Call: Equatable {
            case request(Int)
            case cancel
        }

        let gate = Gate()
        let overlaps = Atomic<Int>(0)
        private let inFlight = Atomic<Int>(0)
        private let calls = TestLock<[Call]>([])

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: self)
        }

        private func record(_ call: Call) {
            if inFlight.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
            gate.pass()
            calls.withLock { $0.append(call) }
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
        }

        func request(_ demand: Subscribers.Demand) { record(.request(demand.max ?? -1)) }

        func cancel() { record(.cancel) }

        var recorded: [Call] { calls.withLock { $0 } }
    }

    /// Keeps the subscription, which arrives on the scheduler.
    final class Downstream: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never

        private let stored = TestLock<UncheckedBox<any Subscription>?>(nil)

        func receive(subscription: any Subscription) { stored.withLock { $0 = UncheckedBox(subscription) } }
        func receive(_ input: Int) -> Subscribers.Demand { .none }
        func receive(completion: Subscribers.Completion<Never>) {}

        var subscription: UncheckedBox<any Subscription>? { stored.withLock { $0 } }
    }

    func run<S: Scheduler>(on scheduler: S) async {
        let upstream = Upstream()
        let downstream = Downstream()
        upstream.subscribe(on: scheduler).subscribe(downstream)
        #expect(await eventually { downstream.subscription != nil }, "no subscription")
        guard let subscription = downstream.subscription else { return }
        let total = 8_000
        let perProducer = total / producers
        await makeCalls(total, producers: producers, gate: upstream.gate) { subscription.value.request(.max($0)) }
        subscription.value.cancel()
        #expect(await eventually { upstream.recorded.contains(.cancel) }, "no cancel")
        await settle()
        let calls = upstream.recorded
        #expect(upstream.overlaps.load(ordering: .relaxed) == 0, "overlapping calls")
        #expect(calls.last == .cancel, "the cancel is not the last call")
        #expect(calls.filter { $0 == .cancel }.count == 1)
        let requests = calls.compactMap { call -> Int? in
            if case .request(let demand) = call { demand } else { nil }
        }
        let made = byProducer(requests)
        for producer in 0..<producers {
            #expect(made[producer] == Array(1...perProducer), "producer \(producer)")
        }
    }
}

@Suite(.serialized) struct ConcurrentSchedulerTests {
    static let venues = ConcurrentVenue.allCases
    /// One producer, and several sending at once.
    static let producers = [1, 4]

    @Test(arguments: venues, producers)
    func receiveOnDeliversEveryValueInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .receiveOn, producers: producers))
    }

    @Test(arguments: venues, producers)
    func delayDeliversEveryValueInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .delay, producers: producers))
    }

    @Test(arguments: venues, producers)
    func subscribeOnMakesEveryRequestInOrderOneAtATimeThenTheCancel(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(RequestsThenCancel(producers: producers))
    }

    @Test(arguments: venues, producers)
    func debounceDeliversInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .debounce, producers: producers))
    }

    @Test(arguments: venues, producers)
    func throttleLatestDeliversInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .throttle(latest: true), producers: producers))
    }

    @Test(arguments: venues, producers)
    func throttleFirstDeliversInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .throttle(latest: false), producers: producers))
    }

    @Test(arguments: venues, producers)
    func timeoutDeliversEveryValueInOrderOneAtATimeThenTheCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenCompletion(operation: .timeout, producers: producers))
    }

    @Test(arguments: venues, producers)
    func timeoutDeliversTheValuesItTookInBeforeItsCompletion(venue: ConcurrentVenue, producers: Int) async {
        await venue.run(ValuesThenTimeout(producers: producers))
    }

    @Test(arguments: venues, producers)
    func collectByTimeOrCountDeliversEveryArrayInOrderOneAtATimeThenTheCompletion(
        venue: ConcurrentVenue, producers: Int
    ) async {
        await venue.run(CollectedValuesThenCompletion(producers: producers))
    }
}
