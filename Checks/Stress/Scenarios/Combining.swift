// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import StressKit
import Synchronization

// Stress scenarios for the combining operators: merge (Merge4, MergeMany), flatMap (inner
// subjects, and Just inners: Sluice's fast path) and switchToLatest, under real threads. Same
// harness and invariants as Scenarios.swift (StressKit.Probe), plus what each operator promises:
// merge cancels the other upstreams when one fails; flatMap asks upstream for `maxPublishers`
// and for one more per finished inner, and finishes only after upstream and every inner did;
// switchToLatest never delivers a value of an inner after one of a later inner, nor a value
// sent into an inner after the switch away from it returned.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

// MARK: - merge

/// Rounds of four PassthroughSubjects, each sent into from its own DispatchQueue, merged by
/// `MergeMany` (even rounds) or `Merge4` (odd rounds) into three subscribers: an unlimited custom
/// subscriber, a sink, and a subscriber whose demand (`.max(k)`) another thread grants. Rounds
/// rotate: every producer finishes (each unlimited subscriber gets every value, in order, then
/// one `.finished`); producer 0 fails halfway (one failure, nothing after it, and every other
/// upstream subscription is cancelled, once per merge); or a thread cancels all three
/// subscribers while values flow (at most the one in-flight delivery after cancel() returned).
@Sendable func mergeFromQueues(scale: Int) -> StressOutcome {
    let P = producerCount
    let rounds = max(6, min(60, scale / 20_000))
    // 10% over scale / (rounds * P): the failing rounds send fewer, and the total stays above scale.
    let perProducer = max(8, scale / (rounds * P) * 11 / 10)
    let queues = (0..<P).map { DispatchQueue(label: "sluice.stress.merge.\($0)") }
    let sent = Counter()
    let beforeCancel = Counter()
    var violations: [String] = []
    for round in 0..<rounds {
        let mergeMany = round % 2 == 0
        let ending = (round / 2) % 3
        let failAt = perProducer / 2 + round % 97
        let label =
            "round \(round) \(mergeMany ? "MergeMany" : "Merge4"), \(["all finish", "producer 0 fails after \(failAt)", "cancelled from another thread"][ending])"

        let subjects = (0..<P).map { _ in PassthroughSubject<Int, StressError>() }
        let cancels = (0..<P).map { _ in Counter() }
        let upstreams = (0..<P).map { p in subjects[p].handleEvents(receiveCancel: { cancels[p].add(1) }) }

        let a = Probe("\(label): unlimited subscriber", producers: P, contiguous: true, firstSeq: 0)
        let aSubscriber = ProbeSubscriber<StressError>(a, initial: nil)
        let b = Probe("\(label): sink", producers: P, contiguous: true, firstSeq: 0)
        let c = Probe("\(label): max(4), then max(1...8) from another thread", producers: P)
        let cSubscriber = ProbeSubscriber<StressError>(c, initial: 4)
        func attach<M: Publisher>(_ merged: M) -> AnyCancellable where M.Output == Int, M.Failure == StressError {
            merged.subscribe(aSubscriber)
            let sink = probeSink(merged, b)
            merged.subscribe(cSubscriber)
            return sink
        }
        let bSink = Shared(
            mergeMany
                ? attach(Publishers.MergeMany(upstreams))
                : attach(upstreams[0].merge(with: upstreams[1], upstreams[2], upstreams[3])))

        let group = DispatchGroup()
        for p in 0..<P {
            let subject = Shared(subjects[p])
            queues[p].async(group: group) {
                let count = ending == 1 && p == 0 ? failAt : perProducer
                for seq in 0..<count {
                    subject.value.send(Tag.make(producer: p, seq: seq))
                    if seq & 255 == 0 { spinPause() }
                }
                sent.add(count)
                if ending == 1 {
                    // The others stay live, so that the failure has to cancel them.
                    if p == 0 { subject.value.send(completion: .failure(.planted)) }
                } else {
                    subject.value.send(completion: .finished)
                }
            }
        }
        let producersDone = Flag()
        let cancelled = Flag()
        runThreads(2) { index in
            var rng = FastRandom(seed: UInt64(round * 8 + index + 1) &* 0x9E37_79B9)
            if index == 0 {
                // Grants demand to the limited subscriber until it has its terminal event.
                var idle = 0
                while c.terminals == 0, !cancelled.isSet, idle < 200_000 {
                    if producersDone.isSet { idle += 1 }
                    if c.granted - c.received < 4 { cSubscriber.request(1 + Int(rng.next() % 8)) } else { spinPause() }
                }
                return
            }
            if ending == 2 {
                waitUntil(
                    a, received: Int(rng.next() % UInt64(P * perProducer / 2)), unless: { a.terminals > 0 },
                    limit: 100_000)
                beforeCancel.add(a.received)
                aSubscriber.cancel()
                bSink.value.cancel()
                b.markCancelled()
                cSubscriber.cancel()
                cancelled.set()
            }
            group.wait()
            producersDone.set()
        }

        let all = Array(repeating: perProducer, count: P)
        switch ending {
        case 0:
            violations += a.check(perProducer: all, terminals: 1...1, failures: 0...0)
            violations += b.check(perProducer: all, terminals: 1...1, failures: 0...0)
            violations += c.check(terminals: 1...1, failures: 0...0)
        case 1:
            for probe in [a, b, c] { violations += probe.check(terminals: 1...1, failures: 1...1) }
            for p in 1..<P where cancels[p].value != 3 {
                violations.append(
                    "[\(label)] producer \(p)'s subscriptions cancelled \(cancels[p].value) times after producer 0 failed, expected 3 (once per merge)"
                )
            }
        default:
            for probe in [a, b, c] { violations += probe.check(terminals: 0...1) }
        }
        if violations.count > 12 { break }
    }
    return StressOutcome(
        events: sent.value, threads: P + 2, violations: violations,
        notes: "\(rounds) rounds of \(P) x \(perProducer) sends, 3 subscribers each; "
            + "the unlimited subscribers of the cancelled rounds had \(beforeCancel.value) values when cancelled")
}

// MARK: - flatMap

/// Rounds over four variants. Inner subjects (`maxPublishers` `.max(2)`, then `.unlimited`): one
/// thread sends keys into an upstream subject, waiting for a free slot; each key is mapped to its
/// own inner PassthroughSubject, which four threads send into (each its own sequence) and the last
/// of them to finish its share finishes. Every key sent with a free slot must be subscribed (the
/// slot accounting: upstream is asked for `maxPublishers` and one more per finished inner), every
/// value of every inner must arrive once and in its sender's order, and the one `.finished` must
/// come after upstream and every inner began finishing. Just inners (`.unlimited`, then `.max(3)`):
/// four threads send into the upstream subject, each value mapped to `Just`; with `.unlimited`
/// every value arrives, also at a subscriber whose demand another thread grants a little at a time.
@Sendable func flatMapInnerSubjects(scale: Int) -> StressOutcome {
    let rounds = 8
    // 5% over scale / rounds: the inner-subject rounds send a random total around their target.
    let perRound = max(400, scale / rounds * 21 / 20)
    let sent = Counter()
    var violations: [String] = []
    var notes: [String] = []
    for round in 0..<rounds {
        switch round % 4 {
        case 0: violations += flatMapSubjectsRound(round, events: perRound, maxPublishers: 2, sent: sent, notes: &notes)
        case 1:
            violations += flatMapSubjectsRound(round, events: perRound, maxPublishers: nil, sent: sent, notes: &notes)
        case 2: violations += flatMapJustRound(round, events: perRound, maxPublishers: nil, sent: sent)
        default: violations += flatMapJustRound(round, events: perRound, maxPublishers: 3, sent: sent)
        }
        if violations.count > 12 { break }
    }
    return StressOutcome(
        events: sent.value, threads: 5, violations: violations,
        notes: "\(rounds) rounds; " + notes.joined(separator: ", "))
}

/// One inner-subject round: `maxPublishers` nil is `.unlimited` (the key thread then keeps at most
/// 8 inners live, so that the four senders share them).
private func flatMapSubjectsRound(_ round: Int, events: Int, maxPublishers: Int?, sent: Counter, notes: inout [String])
    -> [String]
{
    let senders = 4
    let meanShare = 50
    let keys = max(4, events / (senders * meanShare))
    let cap = maxPublishers ?? 8
    let label =
        "round \(round) flatMap(maxPublishers: \(maxPublishers.map { ".max(\($0))" } ?? ".unlimited")) over inner subjects"
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<keys).map { _ in PassthroughSubject<Int, Never>() }
    let subscribed = (0..<keys).map { _ in Flag() }
    // Each sender's share of each inner, the same in every thread (seeded by key and sender).
    let share: @Sendable (Int, Int) -> Int = { key, t in
        var rng = FastRandom(seed: UInt64(round &* 7919 &+ key &* 31 &+ t &+ 1) &* 0x2545_F491)
        return 1 + Int(rng.next() % UInt64(2 * meanShare - 1))
    }

    // A value from sender t into inner `key` is producer key * senders + t.
    let probe = Probe("\(label): unlimited sink", producers: keys * senders, contiguous: true, firstSeq: 0)
    let opened = Counter()
    let finishing = Counter()
    let finished = Counter()
    let upstreamFinishing = Flag()
    let earlyCompletion = Locked<String?>(nil)
    probe.grant(nil)
    let innerList = Shared(inners)
    let flat =
        maxPublishers.map {
            upstream.flatMap(maxPublishers: .max($0)) { key in
                innerList.value[key].handleEvents(receiveSubscription: { _ in subscribed[key].set() })
            }.eraseToAnyPublisher()
        }
        ?? upstream.flatMap(maxPublishers: .unlimited) { key in
            innerList.value[key].handleEvents(receiveSubscription: { _ in subscribed[key].set() })
        }.eraseToAnyPublisher()
    let sink = flat.sink(
        receiveCompletion: { _ in
            if !upstreamFinishing.isSet || finishing.value != opened.value {
                earlyCompletion.withLock {
                    $0 =
                        "upstream finishing: \(upstreamFinishing.isSet), inners finishing \(finishing.value) of \(opened.value) subscribed"
                }
            }
            probe.terminal(failed: false)
        },
        receiveValue: { probe.value($0) }
    )

    let open = Locked<[Int]>([])
    let doneShares = (0..<keys).map { _ in Counter() }
    let keysDone = Flag()
    let dropped = Locked<[String]>([])
    let sharedUpstream = Shared(upstream)
    runThreads(senders + 1) { index in
        if index == senders {
            for key in 0..<keys {
                var spins = 0
                while opened.value - finished.value >= cap, spins < 2_000_000 { spinPause(); spins += 1 }
                let live = opened.value - finished.value
                sharedUpstream.value.send(key)
                if subscribed[key].isSet {
                    opened.add(1)
                    open.withLock { $0.append(key) }
                } else if live < cap {
                    dropped.withLock {
                        $0.append("key \(key) sent with \(live) of \(cap) inners live was not subscribed")
                    }
                }
            }
            keysDone.set()
            upstreamFinishing.set()
            sharedUpstream.value.send(completion: .finished)
            return
        }
        let t = index
        var next = [Int](repeating: 0, count: keys)
        var sentHere = 0
        while true {
            let allOpened = keysDone.isSet
            // A copy made under the lock: sharing the buffer would leave its uniqueness to the
            // (uninstrumented) reference count, and TSan would report the next append in place.
            let snapshot = open.withLock { list in list.map { $0 } }
            if allOpened, snapshot.isEmpty { break }
            var progressed = false
            for key in snapshot where next[key] < share(key, t) {
                innerList.value[key].send(Tag.make(producer: key * senders + t, seq: next[key]))
                next[key] += 1
                sentHere += 1
                progressed = true
                if next[key] == share(key, t), doneShares[key].add(1) == senders {
                    open.withLock { $0.removeAll { $0 == key } }
                    finishing.add(1)
                    innerList.value[key].send(completion: .finished)
                    finished.add(1)
                }
            }
            if !progressed { spinPause() }
        }
        sent.add(sentHere)
    }
    withExtendedLifetime(sink) {}

    var violations = dropped.withLock { $0 }.prefix(3).map { "[\(label)] \($0)" }
    var expected: [Int] = []
    for key in 0..<keys {
        for t in 0..<senders { expected.append(subscribed[key].isSet ? share(key, t) : 0) }
    }
    violations += probe.check(perProducer: expected, terminals: 1...1)
    if let early = earlyCompletion.withLock({ $0 }) {
        violations.append("[\(label)] completion before upstream and every inner finished: \(early)")
    }
    if notes.isEmpty { notes.append("\(keys) inners per inner-subject round") }
    return violations
}

/// One Just round: four threads send into the upstream subject; `maxPublishers` nil is `.unlimited`.
private func flatMapJustRound(_ round: Int, events: Int, maxPublishers: Int?, sent: Counter) -> [String] {
    let P = producerCount
    let perProducer = max(1, events / P)
    let label =
        "round \(round) flatMap(maxPublishers: \(maxPublishers.map { ".max(\($0))" } ?? ".unlimited")) { Just($0) }"
    let upstream = PassthroughSubject<Int, Never>()
    let flat =
        maxPublishers.map { upstream.flatMap(maxPublishers: .max($0)) { Just($0) }.eraseToAnyPublisher() }
        ?? upstream.flatMap(maxPublishers: .unlimited) { Just($0) }.eraseToAnyPublisher()
    // With `.max(3)` a send that finds no upstream demand is dropped by the subject: no loss check.
    let lossless = maxPublishers == nil
    let a = Probe("\(label): unlimited subscriber", producers: P, contiguous: lossless, firstSeq: 0)
    flat.subscribe(ProbeSubscriber<Never>(a, initial: nil))
    let c = Probe(
        "\(label): max(2), then max(1...16) from another thread", producers: P, contiguous: lossless, firstSeq: 0)
    let cSubscriber = ProbeSubscriber<Never>(c, initial: 2)
    flat.subscribe(cSubscriber)

    let shared = Shared(upstream)
    let producersDone = Counter()
    let completed = Flag()
    runThreads(P + 1) { index in
        if index < P {
            for seq in 0..<perProducer {
                shared.value.send(Tag.make(producer: index, seq: seq))
                if seq & 255 == 0 { spinPause() }
            }
            sent.add(perProducer)
            if producersDone.add(1) == P {
                shared.value.send(completion: .finished)
                completed.set()
            }
            return
        }
        var rng = FastRandom(seed: UInt64(round + 1) &* 0xBF58_476D)
        var idle = 0
        while c.terminals == 0, idle < 200_000 {
            if completed.isSet { idle += 1 }
            if c.granted - c.received < 8 { cSubscriber.request(1 + Int(rng.next() % 16)) } else { spinPause() }
        }
    }

    var violations: [String] = []
    if lossless {
        let all = Array(repeating: perProducer, count: P)
        violations += a.check(perProducer: all, terminals: 1...1)
        violations += c.check(perProducer: all, terminals: 1...1)
    } else {
        violations += a.check(terminals: 1...1)
        violations += c.check(terminals: 1...1)
    }
    return violations
}

// MARK: - switchToLatest

/// Sees the inner ids a subscriber receives, in order; calls into one subscriber are serial (the
/// probe counts overlaps), so the plain state needs no lock of its own.
final class InnerOrder: @unchecked Sendable {
    private var highest = -1
    private(set) var backwards = 0
    private(set) var example: String?
    func see(_ value: Int) {
        let id = Tag.seq(value) >> SwitchTag.idShift
        if id < highest {
            backwards += 1
            if example == nil { example = "inner \(id) after inner \(highest)" }
        } else {
            highest = id
        }
    }
}

/// How switchToLatest stress values carry their inner's id: seq = id << idShift | sender's count.
enum SwitchTag {
    static let idShift = 24
    static let maxInners = 1 << 15
}

/// One thread switches an upstream subject to new inner PassthroughSubjects (inner ids 0, 1, 2, ...)
/// while three threads send into the current inner and, now and then, into the previous one
/// after the switch away from it returned. Three subscribers (unlimited custom, sink, `.max(8)`
/// plus one per value). Checked: ids never go backwards at a subscriber; nothing sent into an
/// inner after the switch away from it returned arrives; no value twice, each sender's order,
/// one `.finished`; and (unlimited subscribers) every value sent into the current inner while no
/// switch away from it had started arrives.
@Sendable func switchToLatestRacingSwitches(scale: Int) -> StressOutcome {
    let senders = 3
    let perSender = max(100, (scale + senders - 1) / senders)
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inners = Locked<[PassthroughSubject<Int, Never>]>([])
    let box = SwitchState()

    // Producers 0..<3: sender t into the latest inner; 3..<6: sender t into the previous inner
    // after the switch away from it returned (must never arrive).
    func probes(_ name: String) -> Probe { Probe(name, producers: 2 * senders) }
    let a = probes("unlimited subscriber")
    let aOrder = InnerOrder()
    let switched = upstream.switchToLatest()
    switched.handleEvents(receiveOutput: { aOrder.see($0) }).subscribe(ProbeSubscriber<Never>(a, initial: nil))
    let b = probes("sink")
    let bOrder = InnerOrder()
    b.grant(nil)
    let bSink = switched.sink(
        receiveCompletion: { _ in b.terminal(failed: false) },
        receiveValue: {
            b.value($0); bOrder.see($0)
        })
    let c = probes("max(8), +1 per value")
    let cOrder = InnerOrder()
    switched.handleEvents(receiveOutput: { cOrder.see($0) }).subscribe(
        ProbeSubscriber<Never>(c, initial: 8, perValue: 1))

    let first = PassthroughSubject<Int, Never>()
    inners.withLock { $0.append(first) }
    upstream.send(first)

    let sendersDone = Counter()
    let mustArrive = (0..<senders).map { _ in Counter() }
    let sharedUpstream = Shared(upstream)
    let switches = Counter()
    let staleTotal = Counter()
    runThreads(senders + 1) { index in
        var rng = FastRandom(seed: UInt64(index + 1) &* 0xD1B5_4A32)
        if index == senders {
            var id = 0
            while sendersDone.value < senders, id + 1 < SwitchTag.maxInners {
                id += 1
                let inner = PassthroughSubject<Int, Never>()
                inners.withLock { $0.append(inner) }
                box.switchingTo.store(id, ordering: .sequentiallyConsistent)
                sharedUpstream.value.send(inner)
                box.latest.store(id, ordering: .sequentiallyConsistent)
                switches.add(1)
                waitUntil(
                    a, received: a.received + 1 + Int(rng.next() % 300), unless: { sendersDone.value >= senders },
                    limit: 200)
            }
            return
        }
        let t = index
        var cachedID = -1
        var current: PassthroughSubject<Int, Never>?
        var previous: PassthroughSubject<Int, Never>?
        var must = 0
        var staleSends = 0
        for count in 0..<perSender {
            let id = box.latest.load(ordering: .sequentiallyConsistent)
            if id != cachedID {
                let pair = inners.withLock { list in (list[id], id > 0 ? list[id - 1] : nil) }
                current = pair.0
                previous = pair.1
                cachedID = id
            }
            let stale = id > 0 && rng.next() % 8 == 0
            let target = stale ? id - 1 : id
            let value = Tag.make(producer: t + (stale ? senders : 0), seq: target << SwitchTag.idShift | count)
            if stale {
                staleSends += 1
                previous?.send(value)
            } else {
                current?.send(value)
                // No switch away from this inner had started when the send returned: it must arrive.
                if box.switchingTo.load(ordering: .sequentiallyConsistent) <= target { must += 1 }
            }
            if count & 63 == 0 { spinPause() }
        }
        mustArrive[t].add(must)
        staleTotal.add(staleSends)
        sendersDone.add(1)
    }
    upstream.send(completion: .finished)
    let last = inners.withLock { $0.last! }
    last.send(completion: .finished)
    withExtendedLifetime(bSink) {}

    var violations: [String] = []
    for (probe, order, name) in [
        (a, aOrder, "unlimited subscriber"), (b, bOrder, "sink"), (c, cOrder, "max(8), +1 per value"),
    ] {
        violations += probe.check(terminals: 1...1, failures: 0...0)
        if order.backwards > 0 {
            violations.append("[\(name)] inner ids went backwards \(order.backwards) times (\(order.example ?? ""))")
        }
        let counts = probe.perProducerCounts
        let stale = counts[senders...].reduce(0, +)
        if stale > 0 {
            violations.append(
                "[\(name)] \(stale) values sent into an inner after the switch away from it returned were delivered (per sender \(Array(counts[senders...])))"
            )
        }
        if probe !== c {
            for t in 0..<senders where counts[t] < mustArrive[t].value {
                violations.append(
                    "[\(name)] sender \(t): \(counts[t]) values delivered, but \(mustArrive[t].value) were sent into the current inner with no switch started (lost)"
                )
            }
        }
    }
    return StressOutcome(
        events: senders * perSender, threads: senders + 1, violations: violations,
        notes: "\(switches.value) switches; \(staleTotal.value) sends into a switched-away inner; "
            + "\(mustArrive.reduce(0) { $0 + $1.value }) sends that had to arrive; unlimited subscriber got \(a.received)"
    )
}

/// The switch counters, shared with the threads (an `Atomic` cannot be captured by an escaping closure).
private final class SwitchState: Sendable {
    /// The id of the latest inner whose switch (upstream `send`) has returned.
    let latest = Atomic<Int>(0)
    /// The id of the inner being switched to, stored before upstream `send`.
    let switchingTo = Atomic<Int>(0)
}
