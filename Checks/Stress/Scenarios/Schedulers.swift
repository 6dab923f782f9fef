// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import StressKit

// Operators that hop to a scheduler, on concurrent schedulers: a concurrent DispatchQueue,
// DispatchQueue.global() and an OperationQueue running 4 operations at once, which may run the
// operator's actions in any order and at the same time. The operator keeps the order: every value
// sent before the completion arrives exactly once, in its producer's order, one at a time, all
// before the one completion.
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

/// The schedulers each scenario runs on, by name.
let concurrentSchedulers: [(name: String, make: @Sendable () -> AnyConcurrentScheduler)] = [
    ("concurrent DispatchQueue", { .dispatch(DispatchQueue(label: "stress.concurrent", attributes: .concurrent)) }),
    ("DispatchQueue.global()", { .dispatch(.global()) }),
    (
        "OperationQueue(4)",
        {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 4
            return .operations(queue)
        }
    ),
]

/// One of the concurrent schedulers (the operators are generic over the scheduler type).
enum AnyConcurrentScheduler {
    case dispatch(DispatchQueue)
    case operations(OperationQueue)
}

/// What a scenario builds on a scheduler: the operator under test applied to the subject's output.
protocol HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never>
}

extension HopChain {
    func apply(_ upstream: AnyPublisher<Int, Never>, on scheduler: AnyConcurrentScheduler) -> AnyPublisher<Int, Never> {
        switch scheduler {
        case .dispatch(let queue): apply(upstream, on: queue)
        case .operations(let queue): apply(upstream, on: queue)
        }
    }
}

struct ReceiveOnChain: HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.receive(on: scheduler).eraseToAnyPublisher()
    }
}

struct DelayChain: HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.delay(for: .milliseconds(1), scheduler: scheduler).eraseToAnyPublisher()
    }
}

struct TimeoutChain: HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.timeout(.seconds(60), scheduler: scheduler).eraseToAnyPublisher()
    }
}

struct CollectChain: HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.collect(.byTimeOrCount(scheduler, .milliseconds(1), 7)).flatMap { $0.publisher }.eraseToAnyPublisher()
    }
}

struct DebounceChain: HopChain {
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.debounce(for: .microseconds(50), scheduler: scheduler).eraseToAnyPublisher()
    }
}

struct ThrottleChain: HopChain {
    let latest: Bool
    func apply<S: Scheduler>(_ upstream: AnyPublisher<Int, Never>, on scheduler: S) -> AnyPublisher<Int, Never> {
        upstream.throttle(for: .microseconds(50), scheduler: scheduler, latest: latest).eraseToAnyPublisher()
    }
}

/// Sends `scale` values in all through `chain` on each concurrent scheduler, from one producer and
/// from four, then the completion, and waits for it. `keepsEvery`: the operator passes every value
/// (otherwise — debounce, throttle — what arrives is still in order, one at a time, and before the
/// completion).
func hopsOnConcurrentSchedulers(_ chain: some HopChain, keepsEvery: Bool, scale: Int) -> StressOutcome {
    var violations: [String] = []
    var events = 0
    let runs = concurrentSchedulers.count * 2
    for (name, make) in concurrentSchedulers {
        for producers in [1, producerCount] {
            let perProducer = max(1, scale / runs / producers)
            let subject = PassthroughSubject<Int, Never>()
            let probe = Probe(
                "\(name), \(producers) producer\(producers == 1 ? "" : "s")", producers: producers,
                contiguous: keepsEvery, firstSeq: keepsEvery ? 0 : nil)
            let sink = probeSink(chain.apply(subject.eraseToAnyPublisher(), on: make()), probe)
            let shared = Shared(subject)
            runThreads(producers) { index in
                for seq in 0..<perProducer { shared.value.send(Tag.make(producer: index, seq: seq)) }
            }
            subject.send(completion: .finished)
            var waited = 0
            while probe.terminals == 0 && waited < 60_000 {
                usleep(1_000)
                waited += 1
            }
            events += perProducer * producers
            violations += probe.check(
                perProducer: keepsEvery ? Array(repeating: perProducer, count: producers) : nil, terminals: 1...1)
            withExtendedLifetime(sink) {}
        }
    }
    return StressOutcome(events: events, threads: producerCount, violations: violations)
}

/// The stress scenarios of operators on concurrent schedulers.
let schedulerScenarios: [StressScenario] = [
    StressScenario(
        name: "receiveOn.concurrentSchedulers",
        summary:
            "values then the completion from 1 and 4 threads through receive(on:) a concurrent scheduler (3 kinds)",
        run: { hopsOnConcurrentSchedulers(ReceiveOnChain(), keepsEvery: true, scale: $0) }
    ),
    StressScenario(
        name: "delay.concurrentSchedulers",
        summary: "the same through delay(for: 1 ms) on a concurrent scheduler",
        run: { hopsOnConcurrentSchedulers(DelayChain(), keepsEvery: true, scale: $0) }
    ),
    StressScenario(
        name: "timeout.concurrentSchedulers",
        summary: "the same through timeout(60 s) on a concurrent scheduler",
        run: { hopsOnConcurrentSchedulers(TimeoutChain(), keepsEvery: true, scale: $0) }
    ),
    StressScenario(
        name: "collectByTime.concurrentSchedulers",
        summary: "the same through collect(.byTimeOrCount(1 ms, 7)), flattened, on a concurrent scheduler",
        run: { hopsOnConcurrentSchedulers(CollectChain(), keepsEvery: true, scale: $0) }
    ),
    StressScenario(
        name: "debounce.concurrentSchedulers",
        summary: "the same through debounce(50 µs): what arrives is in order, one at a time, before the completion",
        run: { hopsOnConcurrentSchedulers(DebounceChain(), keepsEvery: false, scale: $0) }
    ),
    StressScenario(
        name: "throttle.concurrentSchedulers",
        summary: "the same through throttle(50 µs, latest: false, then true)",
        run: { scale in
            var first = hopsOnConcurrentSchedulers(ThrottleChain(latest: false), keepsEvery: false, scale: scale / 2)
            let latest = hopsOnConcurrentSchedulers(ThrottleChain(latest: true), keepsEvery: false, scale: scale / 2)
            first.events += latest.events
            first.violations += latest.violations
            return first
        }
    ),
    StressScenario(
        name: "subscribeOn.concurrentSchedulers",
        summary:
            "a sequence subscribed on a concurrent scheduler, asked for one value at a time: requests reach it one at a time and in order, every value arrives once, in order",
        run: subscribeOnConcurrentSchedulers
    ),
]

/// `(0..<n).publisher.subscribe(on:)` a concurrent scheduler, with a subscriber that asks for the
/// next value from inside `receive` (each request an action on the scheduler, racing the others).
@Sendable func subscribeOnConcurrentSchedulers(scale: Int) -> StressOutcome {
    var violations: [String] = []
    var events = 0
    for (name, make) in concurrentSchedulers {
        let count = max(1, scale / concurrentSchedulers.count / 8)
        let probe = Probe("\(name), one request per value", producers: 1, contiguous: true, firstSeq: 0)
        let subscriber = OneAtATime(probe)
        let source = (0..<count).publisher.eraseToAnyPublisher()
        switch make() {
        case .dispatch(let queue): source.subscribe(on: queue).subscribe(subscriber)
        case .operations(let queue): source.subscribe(on: queue).subscribe(subscriber)
        }
        var waited = 0
        while probe.terminals == 0 && waited < 60_000 {
            usleep(1_000)
            waited += 1
        }
        events += count
        violations += probe.check(perProducer: [count], terminals: 1...1)
    }
    return StressOutcome(events: events, threads: 1, violations: violations)
}

/// Asks for one value at the subscription, then for the next one from inside `receive`, through
/// `request` (not the demand it returns), so that every request is a call the operator schedules.
private final class OneAtATime: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let probe: Probe
    private var subscription: (any Subscription)?

    init(_ probe: Probe) { self.probe = probe }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        probe.grant(1)
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        probe.value(input)
        probe.grant(1)
        subscription?.request(.max(1))
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        probe.terminal(failed: false)
        subscription = nil
    }
}
