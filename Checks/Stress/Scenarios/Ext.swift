// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Glibc
import StressKit

// Scenarios on SluiceExt: ReplaySubject, share(replay:), withLatestFrom and the relays, with
// subscribers attaching and cancelling while values are sent; `create` and the async sequence
// publisher, with sources sending from several threads against demand asked from another (the
// list is in Scenarios.swift).
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceExt
#else
import Sluice
import SluiceExt
#endif

/// Attaches subscribers to `publisher` until `finished`, and cancels them: from outside after some
/// values, or from inside `receive`. Each has unlimited demand, so it must see, from each producer,
/// an unbroken run of values from the first it sees (`contiguous`). Returns the probes.
private func churn<P: Publisher>(
    _ publisher: P, producers: Int, thread: Int, until finished: @Sendable () -> Bool
) -> [Probe] where P.Output == Int {
    var rng = FastRandom(seed: UInt64(thread + 7) &* 0x9E37_79B9)
    var probes: [Probe] = []
    while !finished() {
        let k = probes.count
        let after = 1 + Int(rng.next() % 100)
        let inside = (k + thread) % 2 == 0
        let probe = Probe(
            "churn \(thread)#\(k) (unlimited, \(inside ? "cancels itself after \(after)" : "cancelled from outside"))",
            producers: producers, contiguous: true)
        probes.append(probe)
        let subscriber = ProbeSubscriber<P.Failure>(probe, initial: nil, cancelAfter: inside ? after : nil)
        publisher.subscribe(subscriber)
        waitUntil(probe, received: after, unless: finished)
        subscriber.cancel()
    }
    return probes
}

/// Four threads send into a ReplaySubject(bufferSize: 3) while two threads attach and cancel
/// subscribers. A late subscriber gets the last values, then live ones: from each producer an
/// unbroken run (a value replayed and delivered live, or neither, would break it). A subscriber
/// with demand from another thread loses nothing either: what it has not asked for waits.
@Sendable func replaySubjectSubscribeRacingSend(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let subject = ReplaySubject<Int, Never>(bufferSize: 3)
    let shared = Shared(subject)
    let stable = Probe("stable subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    subject.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let limitedProbe = Probe("subscriber with demand from another thread", producers: P, contiguous: true, firstSeq: 0)
    let limited = ProbeSubscriber<Never>(limitedProbe, initial: 8)
    subject.subscribe(limited)
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 3) { index in
        let subject = shared.value
        if index < P {
            for seq in 0..<perProducer {
                subject.send(Tag.make(producer: index, seq: seq))
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else if index == P {
            while !finished() {
                if limitedProbe.granted - limitedProbe.received < 4 { limited.request(16) } else { spinPause() }
            }
        } else {
            for probe in churn(subject, producers: P, thread: index, until: finished) { churned.append(probe) }
        }
    }
    // What the limited subscriber has not asked for is still waiting: ask for it, then complete.
    limited.request(P * perProducer)
    subject.send(completion: .finished)
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    violations += limitedProbe.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 3, violations: violations,
        notes: "\(probes.count) subscribers attached and cancelled meanwhile")
}

/// Four threads send into a subject shared by `share(replay: 2)`: a first subscriber keeps the
/// connection while two threads attach and cancel others, each of which joins with the last two
/// values and must see unbroken runs after them.
@Sendable func shareReplaySubscribeRacingSend(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share(replay: 2)
    let stable = Probe("first subscriber, unlimited", producers: P, contiguous: true, firstSeq: 0)
    shared.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let box = Shared((upstream, shared))
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 2) { index in
        let (upstream, shared) = box.value
        if index < P {
            for seq in 0..<perProducer {
                upstream.send(Tag.make(producer: index, seq: seq))
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else {
            for probe in churn(shared, producers: P, thread: index, until: finished) { churned.append(probe) }
        }
    }
    upstream.send(completion: .finished)
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...1) }
    return StressOutcome(
        events: P * perProducer, threads: P + 2, violations: violations,
        notes: "\(probes.count) subscribers joined and left the shared stream meanwhile")
}

/// Rounds: two threads send into the upstream of `withLatestFrom` while two threads send into its
/// other publisher, then the other one fails while the upstream is still sending. Every value sent
/// before the failure started arrives once, in each producer's order, then exactly one failure,
/// and nothing after it. Every other round the other publisher's values are strings, which
/// `withLatestFrom` reads under its lock rather than from one atomic word; each value arrives with a
/// latest value the other publisher sent.
@Sendable func withLatestFromRacingOther(scale: Int) -> StressOutcome {
    let producers = 2
    let rounds = max(1, scale / 2_000)
    let perProducer = max(1, scale / (rounds * producers))
    var violations: [String] = []
    for round in 0..<rounds {
        violations +=
            round.isMultiple(of: 2)
            ? withLatestFromRound(round, producers: producers, perProducer: perProducer, latest: { $0 }, number: { $0 })
            : withLatestFromRound(
                round, producers: producers, perProducer: perProducer, latest: { "latest \($0)" },
                number: { $0.hasPrefix("latest ") ? Int($0.dropFirst(7)) : nil })
    }
    return StressOutcome(
        events: rounds * producers * perProducer, threads: producers + 2, violations: violations,
        notes: "\(rounds) rounds, each ended by the other publisher's failure, half with strings as latest values")
}

/// One round of `withLatestFromRacingOther`, the other publisher sending `latest(n)` for n = 0, 1, ...
/// (`number` reads n back).
func withLatestFromRound<Latest: Sendable>(
    _ round: Int, producers: Int, perProducer: Int, latest: @escaping @Sendable (Int) -> Latest,
    number: @escaping @Sendable (Latest) -> Int?
) -> [String] {
    let upstream = PassthroughSubject<Int, StressError>()
    let other = PassthroughSubject<Latest, StressError>()
    let probe = Probe("round \(round): values paired with the latest", producers: producers, contiguous: true)
    let subscriber = ProbeSubscriber<StressError>(probe, initial: nil)
    let strays = Counter()
    upstream.withLatestFrom(other) { value, last in
        if !(number(last).map { (0..<perProducer).contains($0) } ?? false) { strays.add(1) }
        return value
    }.subscribe(subscriber)
    other.send(latest(0))
    let box = Shared((upstream, other))
    let sent = Counter()
    runThreads(producers + 2) { index in
        let (upstream, other) = box.value
        if index < producers {
            for seq in 0..<perProducer {
                upstream.send(Tag.make(producer: index, seq: seq))
                sent.add(1)
            }
        } else if index == producers {
            for value in 0..<perProducer { other.send(latest(value)) }
        } else {
            while sent.value < producers * perProducer / 2 { spinPause() }
            other.send(completion: .failure(.planted))
        }
    }
    let stray = strays.value > 0 ? ["round \(round): \(strays.value) values came with a latest value never sent"] : []
    return probe.check(terminals: 1...1, failures: 1...1) + stray
}

/// Four threads feed a PassthroughRelay and a CurrentValueRelay while two threads attach and
/// cancel subscribers. A relay never completes: no subscriber sees a terminal event.
@Sendable func relaysAcceptRacingSubscribers(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let passthrough = PassthroughRelay<Int>()
    let current = CurrentValueRelay(Tag.make(producer: P, seq: 0))
    let stable = Probe("stable passthrough subscriber", producers: P, contiguous: true, firstSeq: 0)
    passthrough.subscribe(ProbeSubscriber<Never>(stable, initial: nil))
    let box = Shared((passthrough, current))
    let churned = ProbeList()
    let producersDone = Counter()
    let finished: @Sendable () -> Bool = { producersDone.value >= P }
    runThreads(P + 2) { index in
        let (passthrough, current) = box.value
        if index < P {
            for seq in 0..<perProducer {
                let value = Tag.make(producer: index, seq: seq)
                passthrough.accept(value)
                current.accept(value)
                if seq & 255 == 0 { spinPause() }
            }
            producersDone.add(1)
        } else if index == P {
            for probe in churn(passthrough, producers: P, thread: index, until: finished) { churned.append(probe) }
        } else {
            for probe in churn(current, producers: P + 1, thread: index, until: finished) { churned.append(probe) }
        }
    }
    var violations = stable.check(perProducer: Array(repeating: perProducer, count: P), terminals: 0...0)
    let probes = churned.all
    violations += probes.flatMap { $0.check(terminals: 0...0) }
    return StressOutcome(
        events: 2 * P * perProducer, threads: P + 2, violations: violations,
        notes: "\(probes.count) subscribers attached and cancelled meanwhile")
}

/// The rounds of a racing-demand scenario. Each round, `start` subscribes the round's subscriber
/// (which asks for 16 values) to a fresh source and returns how to send into it and how to end
/// the round. Four threads send, one asks for 16 more whenever fewer than 8 are outstanding, and
/// every other round one cancels halfway. Then `end` (told whether the round was cancelled)
/// finishes the source or checks what the cancel must have done, and returns its violations.
/// What is not asked for waits: nothing is delivered beyond demand, lost or duplicated, each
/// producer's order holds, and a round that is not cancelled completes once, after every value.
private func racingDemandRounds(
    scale: Int,
    start: (ProbeSubscriber<Never>) -> (send: @Sendable (Int) -> Void, end: (_ cancelled: Bool) -> [String])
) -> StressOutcome {
    let P = producerCount
    let rounds = max(2, scale / 25_000)
    let perProducer = max(1, scale / (rounds * P))
    let total = P * perProducer
    var violations: [String] = []
    for round in 0..<rounds {
        let cancels = round % 2 == 1
        let probe = Probe(
            "round \(round): \(cancels ? "cancelled halfway" : "16 at a time")", producers: P, contiguous: true,
            firstSeq: 0)
        let subscriber = ProbeSubscriber<Never>(probe, initial: 16)
        let (send, end) = start(subscriber)
        let cancelled = Counter()
        runThreads(P + 2) { index in
            if index < P {
                for seq in 0..<perProducer { send(Tag.make(producer: index, seq: seq)) }
            } else if index == P {
                while probe.received < total, cancelled.value == 0 {
                    if probe.granted - probe.received < 8 { subscriber.request(16) } else { spinPause() }
                }
            } else if cancels {
                waitUntil(probe, received: total / 2, unless: { false }, limit: .max)
                subscriber.cancel()
                cancelled.add(1)
            }
        }
        violations += end(cancels).map { "round \(round): \($0)" }
        if cancels {
            violations += probe.check(terminals: 0...0)
        } else {
            waitAWhile(until: { probe.terminals > 0 })
            violations += probe.check(perProducer: Array(repeating: perProducer, count: P), terminals: 1...1)
        }
    }
    return StressOutcome(
        events: rounds * total, threads: P + 2, violations: violations,
        notes: "\(rounds) rounds, half of them cancelled halfway")
}

/// Waits, a millisecond at a time and up to five seconds, for what another thread or a task does.
private func waitAWhile(until done: () -> Bool) {
    var waited = 0
    while !done(), waited < 5_000 {
        usleep(1_000)
        waited += 1
    }
}

/// `racingDemandRounds` on `AnyPublisher.create`, whose source knows nothing of demand: besides
/// the rounds' invariants, the source's cancellable is cancelled exactly once, at the completion
/// or at the cancel.
@Sendable func createSendRacingDemand(scale: Int) -> StressOutcome {
    racingDemandRounds(scale: scale) { subscriber in
        let stops = Counter()
        let source = Locked<Publishers.Create<Int, Never>.Subscriber?>(nil)
        AnyPublisher<Int, Never>.create { subscriber in
            source.withLock { $0 = subscriber }
            return AnyCancellable { stops.add(1) }
        }.subscribe(subscriber)
        let box = Shared(source.withLock { $0 }!)
        return (
            send: { box.value.send($0) },
            end: { cancelled in
                if !cancelled { box.value.send(completion: .finished) }
                return stops.value == 1 ? [] : ["the source was stopped \(stops.value) times"]
            }
        )
    }
}

/// `racingDemandRounds` on an `AsyncStream`'s publisher, which pulls only while there is demand:
/// besides the rounds' invariants, a cancel ends the task that iterates (its iterator is let go
/// of), though the stream is not finished.
@Sendable func asyncSequencePublisherRacingDemand(scale: Int) -> StressOutcome {
    racingDemandRounds(scale: scale) { subscriber in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let sequence = ReleaseReportingSequence(base: stream)
        sequence.publisher.subscribe(subscriber)
        return (
            send: { continuation.yield($0) },
            end: { cancelled in
                guard cancelled else {
                    continuation.finish()
                    return []
                }
                waitAWhile(until: { sequence.released.value > 0 })
                return sequence.released.value == 1 ? [] : ["a cancel did not end the iterating task"]
            }
        )
    }
}

/// An `AsyncStream` whose iterator counts its release, which is the end of the task iterating it.
private struct ReleaseReportingSequence: AsyncSequence, Sendable {
    let base: AsyncStream<Int>
    let released = Counter()

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Int>.Iterator
        let sentinel: Sentinel
        mutating func next() async -> Int? { await base.next() }
    }

    final class Sentinel {
        let released: Counter
        init(_ released: Counter) { self.released = released }
        deinit { released.add(1) }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), sentinel: Sentinel(released))
    }
}

/// Rounds: two threads send into the two publishers `amb` races, each its own values and then a
/// finish, and every other round a third cancels halfway. One of them wins: its values arrive
/// unbroken from its first, then (unless cancelled) its finish, and none of the other's.
@Sendable func ambRacingSources(scale: Int) -> StressOutcome {
    let rounds = max(1, scale / 2_000)
    let perProducer = max(1, scale / (rounds * 2))
    var violations: [String] = []
    var wins = [0, 0]
    for round in 0..<rounds {
        let cancels = round % 2 == 1
        let subjects = (PassthroughSubject<Int, StressError>(), PassthroughSubject<Int, StressError>())
        let probe = Probe(
            "round \(round)\(cancels ? ", cancelled halfway" : "")", producers: 2, contiguous: true, firstSeq: 0)
        let subscriber = ProbeSubscriber<StressError>(probe, initial: nil)
        subjects.0.amb(subjects.1).subscribe(subscriber)
        let box = Shared(subjects)
        let sent = Counter()
        runThreads(cancels ? 3 : 2) { index in
            guard index < 2 else {
                while sent.value < perProducer { spinPause() }
                return subscriber.cancel()
            }
            let subject = index == 0 ? box.value.0 : box.value.1
            for seq in 0..<perProducer {
                subject.send(Tag.make(producer: index, seq: seq))
                sent.add(1)
            }
            subject.send(completion: .finished)
        }
        let counts = probe.perProducerCounts
        if counts.allSatisfy({ $0 > 0 }) {
            violations.append("[round \(round)] values from both publishers: \(counts)")
        }
        if let winner = counts.firstIndex(where: { $0 > 0 }) { wins[winner] += 1 }
        violations +=
            cancels
            ? probe.check(terminals: 0...1, failures: 0...0)
            : probe.check(total: perProducer, terminals: 1...1, failures: 0...0)
    }
    return StressOutcome(
        events: rounds * 2 * perProducer, threads: 3, violations: violations,
        notes: "\(rounds) rounds; the first publisher won \(wins[0]), the second \(wins[1])")
}

/// combineLatest()'s arrays, checked as they come (calls into a subscriber never overlap): no
/// producer's sequence goes back from one array to the next.
private final class LatestArrays: @unchecked Sendable {
    var last: [Int]
    var count = 0
    var regressions = 0

    init(producers: Int) { last = Array(repeating: 0, count: producers) }

    /// The array as the next value of one producer, or as an unknown producer's when it went back.
    func next(_ array: [Int]) -> Int {
        let wentBack = count > 0 && zip(array, last).contains { Tag.seq($0) < Tag.seq($1) }
        if wentBack || array.count != last.count { regressions += 1 }
        last = array
        count += 1
        return Tag.make(producer: 0, seq: count - 1)
    }
}

/// Four threads each send into their own subject while `merge()`, `zip()` and `combineLatest()`
/// of the four run. Merge passes on every value in each producer's order; zip's k-th array holds
/// each one's k-th value; combineLatest's arrays never go back in any producer's sequence and end
/// with each one's last value. Each stream finishes once, when all four have.
@Sendable func collectionOperatorsRacingSources(scale: Int) -> StressOutcome {
    let P = producerCount
    let perProducer = max(1, scale / P)
    let subjects = (0..<P).map { _ in PassthroughSubject<Int, StressError>() }
    let merged = Probe("merge()", producers: P, contiguous: true, firstSeq: 0)
    subjects.merge().subscribe(ProbeSubscriber<StressError>(merged, initial: nil))
    let zipped = Probe("zip(), each array as its round", producers: 1, contiguous: true, firstSeq: 0)
    subjects.zip()
        .map { array in
            let round = Tag.seq(array[0])
            let whole = array.enumerated().allSatisfy { Tag.producer($1) == $0 && Tag.seq($1) == round }
            return whole ? Tag.make(producer: 0, seq: round) : Tag.make(producer: P, seq: round)
        }
        .subscribe(ProbeSubscriber<StressError>(zipped, initial: nil))
    let arrays = LatestArrays(producers: P)
    let latest = Probe("combineLatest(), each array in turn", producers: 1, contiguous: true, firstSeq: 0)
    subjects.combineLatest().map(arrays.next).subscribe(ProbeSubscriber<StressError>(latest, initial: nil))
    let box = Shared(subjects)
    runThreads(P) { index in
        let subject = box.value[index]
        for seq in 0..<perProducer {
            subject.send(Tag.make(producer: index, seq: seq))
            if seq & 255 == 0 { spinPause() }
        }
        subject.send(completion: .finished)
    }
    var violations = merged.check(
        perProducer: Array(repeating: perProducer, count: P), terminals: 1...1, failures: 0...0)
    violations += zipped.check(total: perProducer, terminals: 1...1, failures: 0...0)
    violations += latest.check(terminals: 1...1, failures: 0...0)
    if arrays.regressions > 0 { violations.append("[combineLatest()] arrays that went back: \(arrays.regressions)") }
    let ends = (0..<P).map { Tag.make(producer: $0, seq: perProducer - 1) }
    if arrays.last != ends { violations.append("[combineLatest()] last array \(arrays.last), expected \(ends)") }
    return StressOutcome(
        events: 3 * P * perProducer, threads: P, violations: violations,
        notes: "combineLatest published \(arrays.count) arrays")
}
