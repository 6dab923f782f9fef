// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import StressKit
import Synchronization

// The stress scenarios, written once against the Combine API and compiled against each
// implementation: Checks/Stress/Sluice and Checks/Stress/Reference both
// link this folder (a symlink), the second with SLUICE_REFERENCE defined (Package.swift).
//
// Every scenario runs real threads, so the interleaving differs from run to run; what is checked
// is what must hold under every interleaving (StressKit.Probe): no value lost when nothing was
// cancelled, none duplicated, none after the terminal event, at most the one in-flight delivery
// after cancel() returned, never more values than demanded, exactly one terminal event, each
// producer's own order kept, and no two overlapping calls into one subscriber.
#if SLUICE_REFERENCE
import SluiceReference
/// The implementation these scenarios were compiled against.
public let implementation = "SluiceReference"
#else
import Sluice
/// The implementation these scenarios were compiled against.
public let implementation = "Sluice"
#endif

/// Every scenario, in the order the runner prints them.
public let allScenarios: [StressScenario] =
    [
        StressScenario(
            name: "subject.sendAttachCancel",
            summary:
                "4 threads send into a PassthroughSubject while subscribers attach and cancel (from outside and from inside receive)",
            run: subjectSendAttachCancel
        ),
        StressScenario(
            name: "queues.mergedIntoSubject.chains",
            summary:
                "4 DispatchQueues (2 via subscribe(subject), 2 via send) into one subject; handleEvents/filter/map/scan/removeDuplicates/prefix chains, sinks and a limited-demand subscriber",
            run: queuesMergedIntoSubject
        ),
        StressScenario(
            name: "cancel.racingEmission",
            summary:
                "4 threads send while 2 threads attach subscribers and sink chains and cancel them (often one the other thread attached)",
            run: cancelRacingEmission
        ),
        StressScenario(
            name: "fusedSequence.requestFromThreads",
            summary:
                "(1...n).publisher.tryMap drained by request(.max(k)) from 4 threads; rounds that finish, fail, or are cancelled from another thread",
            run: fusedSequenceRequests
        ),
        StressScenario(
            name: "currentValue.setsRacingSubscribers",
            summary:
                "4 threads set value / send into a CurrentValueSubject while 2 threads attach, request, and cancel subscribers",
            run: currentValueSetsRacingSubscribers
        ),
        StressScenario(
            name: "completion.racingSends",
            summary:
                "rounds: 4 threads send while 2 threads race send(completion:) (finished vs failure) and a late subscriber attaches",
            run: completionRacingSends
        ),
        StressScenario(
            name: "merge.fromQueues",
            summary:
                "rounds: 4 PassthroughSubjects sent from their own DispatchQueues, merged (MergeMany / Merge4) into unlimited subscribers and a max(k)-from-another-thread one; rounds finish, fail (others cancelled) or are cancelled",
            run: mergeFromQueues
        ),
        StressScenario(
            name: "flatMap.innerSubjects",
            summary:
                "rounds: keys from one thread flatMap(maxPublishers: .max(2) / .unlimited) to inner subjects 4 threads send into and finish; and flatMap over Just (upstream sent from 4 threads) into unlimited and max(k) subscribers",
            run: flatMapInnerSubjects
        ),
        StressScenario(
            name: "lifetimes.subscribeSendCancel",
            summary:
                "4 threads subscribe keeping subscribers through subject.map { captured }, send, and cancel (inside receive or after); nothing stays alive, resident memory stays flat at full scale",
            run: lifetimesSubscribeSendCancel
        ),
        StressScenario(
            name: "switchToLatest.racingSwitches",
            summary:
                "one thread switches to new inner subjects while 3 threads send into the current and the previous inner; inner ids never go backwards, nothing sent after a switch-away returned arrives",
            run: switchToLatestRacingSwitches
        ),
        StressScenario(
            name: "replaySubject.subscribeRacingSend",
            summary:
                "4 threads send into a ReplaySubject(bufferSize: 3) while 2 threads attach and cancel subscribers; late ones see unbroken runs, a limited one loses nothing",
            run: replaySubjectSubscribeRacingSend
        ),
        StressScenario(
            name: "shareReplay.subscribeRacingSend",
            summary: "4 threads send into share(replay: 2) while 2 threads join and leave the shared stream",
            run: shareReplaySubscribeRacingSend
        ),
        StressScenario(
            name: "withLatestFrom.racingOther",
            summary:
                "rounds: 2 threads send upstream, 1 into the other publisher, and 1 fails the other publisher mid-stream; one failure, nothing after it",
            run: withLatestFromRacingOther
        ),
        StressScenario(
            name: "amb.racingSources",
            summary:
                "rounds: 2 threads send into the two publishers amb races, and every other round 1 cancels halfway; one wins, unbroken, none of the other's values",
            run: ambRacingSources
        ),
        StressScenario(
            name: "collections.racingSources",
            summary:
                "4 threads each send into their own subject under merge(), zip() and combineLatest() of the four; nothing lost, zip's arrays whole, combineLatest's never going back",
            run: collectionOperatorsRacingSources
        ),
        StressScenario(
            name: "relays.acceptRacingSubscribers",
            summary:
                "4 threads accept into a PassthroughRelay and a CurrentValueRelay while 2 threads attach and cancel subscribers; nothing ever completes",
            run: relaysAcceptRacingSubscribers
        ),
        StressScenario(
            name: "create.sendRacingDemand",
            summary:
                "rounds: 4 threads send into AnyPublisher.create's subscriber while 1 asks for 16 at a time and, every other round, 1 cancels halfway; nothing beyond demand, the source stopped once",
            run: createSendRacingDemand
        ),
        StressScenario(
            name: "asyncSequence.racingDemand",
            summary:
                "rounds: 4 threads yield into an AsyncStream whose publisher 1 thread asks 16 at a time and, every other round, 1 cancels halfway; nothing beyond demand, a cancel ends the iteration",
            run: asyncSequencePublisherRacingDemand
        ),
    ] + schedulerScenarios

// MARK: - Scenarios

/// Several threads send into one PassthroughSubject while other threads attach subscribers and
/// cancel them. Subscribers attached from the start with unlimited demand must see every value.
@Sendable func subjectSendAttachCancel(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let subject = PassthroughSubject<Int, Never>()
    let shared = Shared(subject)

    let stable = Probe("stable subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    subject.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let limitedProbe = Probe("stable subscriber, demand from another thread", producers: P)
    let limited = ProbeSubscriber<Never>(limitedProbe, initial: 8)
    subject.subscribe(limited)
    let chainProbe = Probe("handleEvents/map/filter sink", producers: P, contiguous: false)
    let handled = Counter()
    let chain = probeSink(
        subject.handleEvents(receiveOutput: { _ in handled.add(1) }).map { $0 }.filter { Tag.seq($0) % 2 == 0 },
        chainProbe
    )

    let churn = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 3) { index in
        let subject = shared.value
        var rng = FastRandom(seed: UInt64(index + 1) &* 0x9E37_79B9)
        if index < P {
            for seq in 0..<perProducer {
                subject.send(Tag.make(producer: index, seq: seq))
                // Now and then, let the attaching and cancelling threads get the subject's lock.
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
            return
        }
        switch index - P {
        case 0:
            // Grants demand to the limited subscriber from a thread that is not delivering.
            while !finished() {
                if limitedProbe.granted - limitedProbe.received < 4 { limited.request(16) } else { spinPause() }
            }
        case 1:
            // Attach, let some values through, cancel from this thread.
            var k = 0
            while !finished() {
                let unlimited = k % 2 == 0
                let probe = Probe(
                    "churn #\(k) (\(unlimited ? "unlimited" : "max(5), +1 per value"), cancelled from outside)",
                    producers: P, contiguous: unlimited)
                churn.append(probe)
                let subscriber = ProbeSubscriber<Never>(
                    probe, initial: unlimited ? nil : 5, perValue: unlimited ? 0 : 1)
                subject.subscribe(subscriber)
                waitUntil(probe, received: Int(rng.next() % 200), unless: finished)
                subscriber.cancel()
                k += 1
            }
        default:
            // Attach; the subscriber cancels itself from inside receive.
            var k = 0
            while !finished() {
                let after = 1 + Int(rng.next() % 100)
                let probe = Probe(
                    "churn #\(k) (unlimited, cancels itself inside receive after \(after))",
                    producers: P, contiguous: true)
                churn.append(probe)
                let subscriber = ProbeSubscriber<Never>(probe, initial: nil, cancelAfter: after)
                subject.subscribe(subscriber)
                waitUntil(probe, received: after, unless: finished)
                subscriber.cancel()
                k += 1
            }
        }
    }
    subject.send(completion: .finished)
    withExtendedLifetime(chain) {}

    var violations: [String] = []
    violations += stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    violations += limitedProbe.check(terminals: 1...1)
    violations += chainProbe.check(perProducer: Array(repeating: (perProducer + 1) / 2, count: P), terminals: 1...1)
    if handled.value != P * perProducer {
        violations.append("[handleEvents] saw \(handled.value) values, expected \(P * perProducer)")
    }
    let churned = churn.all
    violations += churned.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 3, violations: violations,
        notes: "\(churned.count) subscribers attached and cancelled meanwhile")
}

/// Four DispatchQueues feed one subject: two by `subscribe(subject)` (a fused sequence that then
/// never completes, so that one source finishing does not complete the subject), two by `send`.
/// The subject feeds stage chains into sinks and into custom subscribers with limited demand.
@Sendable func queuesMergedIntoSubject(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(3, scale / P)
    let subject = PassthroughSubject<Int, Never>()
    let shared = Shared(subject)

    let seen = Counter()
    let scanProbe = Probe("handleEvents/filter/map/scan/removeDuplicates sink", producers: P)
    let scanBroken = Counter()
    scanProbe.grant(nil)
    let scanChain =
        subject
        .handleEvents(receiveOutput: { _ in seen.add(1) })
        .filter { Tag.seq($0) % 3 != 0 }
        .map { $0 }
        .scan((count: 0, value: -1)) { accumulated, value in (accumulated.count + 1, value) }
        .removeDuplicates { $0.value == $1.value }
        .sink(receiveValue: { pair in
            scanProbe.value(pair.value)
            if pair.count != scanProbe.received { scanBroken.add(1) }
        })
    // The sink above has no completion handler: a separate one counts the subject's completion.
    let completionProbe = Probe("sink completion", producers: P)
    let completionSink = probeSink(subject.filter { _ in false }, completionProbe)

    // Demand never runs out (each value returns .max(1)), so prefix(K) must see exactly K values.
    let prefixLength = max(1, P * perProducer / 4)
    let prefixProbe = Probe("filter/prefix(\(prefixLength)) subscriber, max(16) +1 per value", producers: P)
    subject.filter { Tag.seq($0) % 2 == 1 }.prefix(prefixLength)
        .subscribe(ProbeSubscriber<Never>(prefixProbe, initial: 16, perValue: 1))

    let limitedProbe = Probe("map/filter subscriber, demand granted from another thread", producers: P)
    let limited = ProbeSubscriber<Never>(limitedProbe, initial: 4)
    subject.map { $0 }.filter { _ in true }.subscribe(limited)

    let group = DispatchGroup()
    let upstreams = Locked<[AnyCancellable]>([])
    for p in 0..<P {
        DispatchQueue(label: "sluice.stress.source.\(p)").async(group: group) {
            let subject = shared.value
            if p < 2 {
                let upstream = (0..<perProducer).publisher
                    .map { Tag.make(producer: p, seq: $0) }
                    .append(Empty(completeImmediately: false))
                    .subscribe(subject)
                upstreams.withLock { $0.append(upstream) }
            } else {
                for seq in 0..<perProducer { subject.send(Tag.make(producer: p, seq: seq)) }
            }
        }
    }
    let sourcesDone = Flag()
    runThreads(2) { index in
        if index == 0 {
            group.wait()
            sourcesDone.set()
        } else {
            while !sourcesDone.isSet {
                if limitedProbe.granted - limitedProbe.received < 4 { limited.request(32) } else { spinPause() }
            }
        }
    }
    upstreams.withLock { all in all.forEach { $0.cancel() } }
    subject.send(completion: .finished)
    withExtendedLifetime((scanChain, completionSink)) {}

    var violations: [String] = []
    if seen.value != P * perProducer {
        violations.append("[handleEvents] saw \(seen.value) values, expected \(P * perProducer)")
    }
    let kept = perProducer - (perProducer + 2) / 3
    violations += scanProbe.check(perProducer: Array(repeating: kept, count: P), terminals: 0...0)
    if scanBroken.value > 0 { violations.append("[scan] running count out of step \(scanBroken.value) times") }
    violations += completionProbe.check(total: 0, terminals: 1...1)
    violations += prefixProbe.check(total: prefixLength, terminals: 1...1, failures: 0...0)
    violations += limitedProbe.check(terminals: 1...1)
    return StressOutcome(events: P * perProducer, threads: P + 1, violations: violations)
}

/// Senders never stop while subscribers (custom, limited, and sink chains) are attached and
/// cancelled, often by a thread other than the one that attached them.
@Sendable func cancelRacingEmission(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let subject = PassthroughSubject<Int, Never>()
    let shared = Shared(subject)
    let stable = Probe("stable subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    subject.subscribe(ProbeSubscriber<Never>(stable, initial: nil))

    let racers = ProbeList()
    let pending = Locked<[Shared<() -> Void>]>([])
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    let cancellers = 2
    runThreads(P + cancellers) { index in
        let subject = shared.value
        if index < P {
            for seq in 0..<perProducer {
                subject.send(Tag.make(producer: index, seq: seq))
                // Now and then, let the attaching and cancelling threads get the subject's lock.
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
            return
        }
        var rng = FastRandom(seed: UInt64(index) &* 0xDEAD_BEEF)
        var k = 0
        while !finished() {
            let tag = "c\(index - P)#\(k)"
            let a = Probe("\(tag) unlimited", producers: P, contiguous: true)
            let aSubscriber = ProbeSubscriber<Never>(a, initial: nil)
            subject.subscribe(aSubscriber)
            let b = Probe("\(tag) map/filter/handleEvents sink", producers: P)
            let bSink = Shared(probeSink(subject.map { $0 }.filter { Tag.seq($0) % 5 != 0 }.handleEvents(), b))
            let c = Probe("\(tag) max(3), +1 per value", producers: P)
            let cSubscriber = ProbeSubscriber<Never>(c, initial: 3, perValue: 1)
            subject.subscribe(cSubscriber)
            for probe in [a, b, c] { racers.append(probe) }
            let actions: [Shared<() -> Void>] = [
                Shared({ aSubscriber.cancel() }),
                Shared({
                    bSink.value.cancel(); b.markCancelled()
                }),
                Shared({ cSubscriber.cancel() }),
            ]
            pending.withLock { $0 += actions }
            jitter(&rng, 64)
            // Cancel three pending subscribers, whichever thread attached them.
            for _ in 0..<3 {
                let action = pending.withLock { list -> Shared<() -> Void>? in
                    list.isEmpty ? nil : list.remove(at: Int(rng.next() % UInt64(list.count)))
                }
                action?.value()
                jitter(&rng, 4)
            }
            k += 1
        }
    }
    for action in pending.withLock({ $0 }) { action.value() }
    subject.send(completion: .finished)

    var violations: [String] = []
    violations += stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    violations += racers.all.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + cancellers, violations: violations,
        notes: "\(racers.all.count) subscribers cancelled while values flowed")
}

/// A fused synchronous source, `(1...n).publisher.tryMap`, emitting on whichever thread's
/// `request` starts the drain while three other threads request too. Rounds rotate: finish
/// (every value, in order, then one `.finished`), fail (values before the throw, then one
/// failure), cancelled from a fourth thread (nothing after cancel() beyond the in-flight one).
@Sendable func fusedSequenceRequests(scale: Int) -> StressOutcome {
    let n = min(10_000, max(100, scale / 4))
    let rounds = max(3, scale / n)
    let threads = 4
    var violations: [String] = []
    for round in 0..<rounds {
        let variant = round % 3
        let failAt = variant == 1 ? n / 2 + round % 97 : -1
        let label = "round \(round) (\(["finishes", "fails at \(failAt)", "cancelled"][variant]))"
        let probe = Probe(label, producers: 1, contiguous: true, firstSeq: 1)
        let subscriber = ProbeSubscriber<any Error>(probe, initial: 0)
        (1...n).publisher
            .tryMap { value -> Int in
                if value == failAt { throw StressError.planted }
                return value
            }
            .subscribe(subscriber)
        let cancelled = Flag()
        runThreads(threads) { index in
            var rng = FastRandom(seed: UInt64(round * threads + index + 1))
            if variant == 2, index == threads - 1 {
                waitUntil(probe, received: Int(rng.next() % UInt64(n)), unless: { probe.terminals > 0 }, limit: 2_000)
                subscriber.cancel()
                cancelled.set()
                return
            }
            while probe.terminals == 0, !cancelled.isSet, probe.granted <= n {
                subscriber.request(1 + Int(rng.next() % 64))
            }
        }
        switch variant {
        case 0: violations += probe.check(total: n, terminals: 1...1, failures: 0...0)
        case 1: violations += probe.check(total: failAt - 1, terminals: 1...1, failures: 1...1)
        default: violations += probe.check(terminals: 0...1, failures: 0...0)
        }
        if violations.count > 12 { break }
    }
    return StressOutcome(
        events: rounds * n, threads: threads, violations: violations,
        notes: "\(rounds) rounds of n = \(n)")
}
