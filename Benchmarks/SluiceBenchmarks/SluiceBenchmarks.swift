// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Sluice side by side with SluiceReference, OpenCombine 0.14.0, a hand-written loop and
// AsyncSequence, in one run. Each scenario's benchmarks are named
// "<scenario> [n=<units per run>] <implementation>"; `scripts/bench` turns the results into
// per-unit figures and ratios. Every run's checksum must equal the hand-written loop's.
import Benchmark
import Foundation
import ScenariosOpenCombine
import ScenariosReference
import ScenariosSluice

/// `SLUICE_BENCH_QUICK=1` divides the sizes by ten (`scripts/bench --quick`).
let scale = ProcessInfo.processInfo.environment["SLUICE_BENCH_QUICK"] == "1" ? 10 : 1
let elements = 10_000_000 / scale
let oneByOneElements = 1_000_000 / scale
let subscriptions = 100_000 / scale
let sends = 1_000_000 / scale
let lifecycles = 10_000 / scale
/// Combining operators run at 10^6 (OpenCombine's flatMap costs about 600 ns per element).
let combined = 1_000_000 / scale
let combinedInput = Array(0..<combined)
/// zip at three sizes, to show how its cost scales.
let zipSizes = [12_500, 50_000, 200_000].map { $0 / scale }
let deliveryQueue = DispatchQueue(label: "sluice.bench.receive-on")

let input = Array(0..<elements)
let oneByOneInput = Array(0..<oneByOneElements)

/// One implementation's run of a scenario: returns the checksum.
typealias Run = @Sendable () -> Int

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .memoryLeakedBytes, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(2),
        maxIterations: 25
    )

    /// Registers one benchmark per implementation; each checks its checksum against `expected`.
    func scenario(_ name: String, units: Int, expected: Int, _ runs: KeyValuePairs<String, Run>) {
        for (implementation, run) in runs {
            Benchmark("\(name) [n=\(units)] \(implementation)") { benchmark in
                for _ in benchmark.scaledIterations {
                    let checksum = run()
                    precondition(
                        checksum == expected,
                        "checksum mismatch in \(name) / \(implementation): \(checksum) != \(expected)")
                    blackHole(checksum)
                }
            }
        }
    }

    // The app pipelines (Apps.swift); "loop" is each one's twin written with callbacks.
    let appSends = sends / 10
    for (name, units, callbacks, sluice, reference, openCombine) in [
        (
            "A1 a form: three @Published fields combined, validated, assigned back (per edit)", appSends,
            Callbacks.formEdits, ScenariosSluice.formEdits, ScenariosReference.formEdits,
            ScenariosOpenCombine.formEdits
        ),
        (
            "A2 search as you type, switchToLatest over Just (per query)", appSends,
            Callbacks.searchSynchronous, ScenariosSluice.searchSynchronous, ScenariosReference.searchSynchronous,
            ScenariosOpenCombine.searchSynchronous
        ),
        (
            "A3 search as you type, switchToLatest over Deferred { Future } (per query)", appSends,
            Callbacks.searchAsynchronous, ScenariosSluice.searchFuture, ScenariosReference.searchFuture,
            ScenariosOpenCombine.searchFuture
        ),
        (
            "A4 an event bus: 16 subscribers, filter by kind, map(\\.payload) (per send)", appSends,
            Callbacks.eventBus, ScenariosSluice.eventBus, ScenariosReference.eventBus, ScenariosOpenCombine.eventBus
        ),
        (
            "A5 a request shared by three views (per lifecycle)", lifecycles,
            Callbacks.sharedRequests, ScenariosSluice.sharedRequests, ScenariosReference.sharedRequests,
            ScenariosOpenCombine.sharedRequests
        ),
        (
            "A6 flatMap(maxPublishers: .max(4)) of requests, collect(10) (per id)", appSends,
            Callbacks.batchedRequests, ScenariosSluice.batchedRequests, ScenariosReference.batchedRequests,
            ScenariosOpenCombine.batchedRequests
        ),
        (
            "A7 a screen: map.filter.removeDuplicates.sink built, fed once, cancelled (per lifecycle)", lifecycles,
            Callbacks.screenLifecycles, ScenariosSluice.screenLifecycles, ScenariosReference.screenLifecycles,
            ScenariosOpenCombine.screenLifecycles
        ),
    ] as [(String, Int, @Sendable (Int) -> Int, @Sendable (Int) -> Int, @Sendable (Int) -> Int, @Sendable (Int) -> Int)]
    {
        scenario(
            name, units: units, expected: callbacks(units),
            [
                "loop": { callbacks(units) },
                "Sluice": { sluice(units) },
                "SluiceReference": { reference(units) },
                "OpenCombine": { openCombine(units) },
            ])
    }

    let mapFilterExpected = HandWritten.mapFilter(input)
    scenario(
        "1 sequence.map.filter.sink", units: elements, expected: mapFilterExpected,
        [
            "loop": { HandWritten.mapFilter(input) },
            "Sluice": { ScenariosSluice.sequenceMapFilter(input) },
            "SluiceReference": { ScenariosReference.sequenceMapFilter(input) },
            "OpenCombine": { ScenariosOpenCombine.sequenceMapFilter(input) },
            "AsyncSequence": { AsyncBaselines.mapFilter(input) },
        ])
    scenario(
        "1e sequence.map.filter.sink (eager overloads)", units: elements, expected: mapFilterExpected,
        [
            "loop": { HandWritten.mapFilter(input) },
            "Sluice": { ScenariosSluice.sequenceMapFilterEager(input) },
            "SluiceReference": { ScenariosReference.sequenceMapFilterEager(input) },
            "OpenCombine": { ScenariosOpenCombine.sequenceMapFilterEager(input) },
        ])
    scenario(
        "2 eight-stage map/filter chain", units: elements, expected: HandWritten.eightStage(input),
        [
            "loop": { HandWritten.eightStage(input) },
            "Sluice": { ScenariosSluice.eightStage(input) },
            "SluiceReference": { ScenariosReference.eightStage(input) },
            "OpenCombine": { ScenariosOpenCombine.eightStage(input) },
            "AsyncSequence": { AsyncBaselines.eightStage(input) },
        ])
    scenario(
        "2b sixteen-stage map/filter chain", units: elements, expected: HandWritten.sixteenStage(input),
        [
            "loop": { HandWritten.sixteenStage(input) },
            "Sluice": { ScenariosSluice.sixteenStage(input) },
            "SluiceReference": { ScenariosReference.sixteenStage(input) },
            "OpenCombine": { ScenariosOpenCombine.sixteenStage(input) },
        ])
    scenario(
        "2c thirty-two-stage map/filter chain", units: elements, expected: HandWritten.thirtyTwoStage(input),
        [
            "loop": { HandWritten.thirtyTwoStage(input) },
            "Sluice": { ScenariosSluice.thirtyTwoStage(input) },
            "SluiceReference": { ScenariosReference.thirtyTwoStage(input) },
            "OpenCombine": { ScenariosOpenCombine.thirtyTwoStage(input) },
        ])
    scenario(
        "2d eight-stage mixed chain (compactMap, drop, scan, removeDuplicates, prefix)", units: elements,
        expected: HandWritten.mixedStages(input),
        [
            "loop": { HandWritten.mixedStages(input) },
            "Sluice": { ScenariosSluice.mixedStages(input) },
            "SluiceReference": { ScenariosReference.mixedStages(input) },
            "OpenCombine": { ScenariosOpenCombine.mixedStages(input) },
        ])
    scenario(
        "3 Just.map.filter.sink per subscription", units: subscriptions,
        expected: HandWritten.justMapFilter(subscriptions),
        [
            "loop": { HandWritten.justMapFilter(subscriptions) },
            "Sluice": { ScenariosSluice.justMapFilter(subscriptions) },
            "SluiceReference": { ScenariosReference.justMapFilter(subscriptions) },
            "OpenCombine": { ScenariosOpenCombine.justMapFilter(subscriptions) },
        ])
    for subscribers in [1, 10] {
        let expected = HandWritten.subjectSend(sends, subscribers: subscribers)
        scenario(
            "4 PassthroughSubject.send to \(subscribers) sink(s)", units: sends, expected: expected,
            [
                "loop": { HandWritten.subjectSend(sends, subscribers: subscribers) },
                "Sluice": { ScenariosSluice.SubjectFixture(subscribers: subscribers).sendPassthrough(sends) },
                "SluiceReference": {
                    ScenariosReference.SubjectFixture(subscribers: subscribers).sendPassthrough(sends)
                },
                "OpenCombine": { ScenariosOpenCombine.SubjectFixture(subscribers: subscribers).sendPassthrough(sends) },
                "AsyncSequence": { AsyncBaselines.streamSend(sends, consumers: subscribers) },
            ])
    }
    for subscribers in [1, 10] {
        scenario(
            "4s share() send to \(subscribers) sink(s)", units: sends,
            expected: HandWritten.subjectSend(sends, subscribers: subscribers),
            [
                "loop": { HandWritten.subjectSend(sends, subscribers: subscribers) },
                "Sluice": { ScenariosSluice.ShareFixture(subscribers: subscribers).send(sends) },
                "SluiceReference": { ScenariosReference.ShareFixture(subscribers: subscribers).send(sends) },
                "OpenCombine": { ScenariosOpenCombine.ShareFixture(subscribers: subscribers).send(sends) },
            ])
    }
    scenario(
        "4c CurrentValueSubject.send to 1 sink", units: sends, expected: HandWritten.subjectSend(sends, subscribers: 1),
        [
            "loop": { HandWritten.subjectSend(sends, subscribers: 1) },
            "Sluice": { ScenariosSluice.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
            "SluiceReference": { ScenariosReference.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
            "OpenCombine": { ScenariosOpenCombine.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
        ])
    scenario(
        "5 scan", units: elements, expected: HandWritten.sum(input),
        [
            "loop": { HandWritten.sum(input) },
            "Sluice": { ScenariosSluice.scan(input) },
            "SluiceReference": { ScenariosReference.scan(input) },
            "OpenCombine": { ScenariosOpenCombine.scan(input) },
        ])
    scenario(
        "5r reduce", units: elements, expected: HandWritten.sum(input),
        [
            "loop": { HandWritten.sum(input) },
            "Sluice": { ScenariosSluice.reduce(input) },
            "SluiceReference": { ScenariosReference.reduce(input) },
            "OpenCombine": { ScenariosOpenCombine.reduce(input) },
            "AsyncSequence": { AsyncBaselines.reduce(input) },
        ])
    scenario(
        "6 demand .max(1) per element", units: oneByOneElements, expected: HandWritten.sum(oneByOneInput),
        [
            "loop": { HandWritten.sum(oneByOneInput) },
            "Sluice": { ScenariosSluice.demandOneByOne(oneByOneInput) },
            "SluiceReference": { ScenariosReference.demandOneByOne(oneByOneInput) },
            "OpenCombine": { ScenariosOpenCombine.demandOneByOne(oneByOneInput) },
        ])
    scenario(
        "7 13-stage build+subscribe+send+cancel", units: lifecycles, expected: HandWritten.sum(Array(0..<lifecycles)),
        [
            "loop": { HandWritten.sum(Array(0..<lifecycles)) },
            "Sluice": { ScenariosSluice.thirteenStageLifecycle(lifecycles) },
            "SluiceReference": { ScenariosReference.thirteenStageLifecycle(lifecycles) },
            "OpenCombine": { ScenariosOpenCombine.thirteenStageLifecycle(lifecycles) },
        ])

    scenario(
        "8 flatMap { Just }", units: combined, expected: HandWritten.tripledSum(combinedInput),
        [
            "loop": { HandWritten.tripledSum(combinedInput) },
            "Sluice": { ScenariosSluice.flatMapJust(combinedInput) },
            "SluiceReference": { ScenariosReference.flatMapJust(combinedInput) },
            "OpenCombine": { ScenariosOpenCombine.flatMapJust(combinedInput) },
        ])
    let halves = (Array(combinedInput[..<(combined / 2)]), Array(combinedInput[(combined / 2)...]))
    scenario(
        "9 merge of two sequences", units: combined, expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.mergeTwo(halves.0, halves.1) },
            "SluiceReference": { ScenariosReference.mergeTwo(halves.0, halves.1) },
        ])
    scenario(
        "9b merge of two types", units: combined, expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.mergeTwoTypes(halves.0, halves.1) },
            "SluiceReference": { ScenariosReference.mergeTwoTypes(halves.0, halves.1) },
        ])
    let eighths = (0..<8).map { Array(combinedInput[($0 * combined / 8)..<(($0 + 1) * combined / 8)]) }
    scenario(
        "9c merge of eight sequences", units: combined, expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.mergeEight(eighths) },
            "SluiceReference": { ScenariosReference.mergeEight(eighths) },
        ])
    for size in zipSizes {
        let side = Array(0..<size)
        scenario(
            "10 zip of two sequences (\(size))", units: size, expected: HandWritten.pairwiseSum(side, side),
            [
                "loop": { HandWritten.pairwiseSum(side, side) },
                "Sluice": { ScenariosSluice.zipTwo(side, side) },
                "SluiceReference": { ScenariosReference.zipTwo(side, side) },
                "OpenCombine": { ScenariosOpenCombine.zipTwo(side, side) },
            ])
    }
    scenario(
        "11 combineLatest of two subjects", units: combined, expected: HandWritten.combineLatestAlternating(combined),
        [
            "loop": { HandWritten.combineLatestAlternating(combined) },
            "Sluice": { ScenariosSluice.combineLatestAlternating(combined) },
            "SluiceReference": { ScenariosReference.combineLatestAlternating(combined) },
        ])
    scenario(
        "12 switchToLatest over Just", units: combined, expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.switchToLatestJust(combinedInput) },
            "SluiceReference": { ScenariosReference.switchToLatestJust(combinedInput) },
            "OpenCombine": { ScenariosOpenCombine.switchToLatestJust(combinedInput) },
        ])
    // "loop" here is the floor: a bare DispatchQueue.async per value.
    //
    // One run of each implementation first, before any benchmark: the reference's unspecialised
    // code makes Swift type metadata on the delivery thread at its first value, and
    // package-benchmark's malloc interposer was seen to crash there (SIGSEGV in
    // `replacement_free` under `swift_getTupleTypeMetadata2`, about one run in five).
    _ = ScenariosSluice.receiveOnQueue(2, queue: deliveryQueue)
    _ = ScenariosReference.receiveOnQueue(2, queue: deliveryQueue)
    scenario(
        "13 receive(on: DispatchQueue)", units: sends, expected: HandWritten.sum(Array(0..<sends)),
        [
            "loop": { HandWritten.asyncPerValue(sends, queue: deliveryQueue) },
            "Sluice": { ScenariosSluice.receiveOnQueue(sends, queue: deliveryQueue) },
            "SluiceReference": { ScenariosReference.receiveOnQueue(sends, queue: deliveryQueue) },
            "OpenCombine": { ScenariosOpenCombine.receiveOnQueue(sends, queue: deliveryQueue) },
        ])

    // Scale and contention: threads started together, `sends` values in all. "loop" is the floor,
    // the same calls under one `Mutex` (23, 24) or a bare `DispatchQueue.async` per value (25).
    let contendedSum = HandWritten.sum(Array(0..<sends))
    for threads in [2, 4] {
        for subscribers in [1, 10] {
            scenario(
                "23 PassthroughSubject.send from \(threads) threads to \(subscribers) sink(s)", units: sends,
                expected: contendedSum &* subscribers,
                [
                    "loop": { HandWritten.lockedSends(sends, threads: threads, subscribers: subscribers) },
                    "Sluice": { ScenariosSluice.contendedSends(sends, threads: threads, subscribers: subscribers) },
                    "SluiceReference": {
                        ScenariosReference.contendedSends(sends, threads: threads, subscribers: subscribers)
                    },
                    "OpenCombine": {
                        ScenariosOpenCombine.contendedSends(sends, threads: threads, subscribers: subscribers)
                    },
                ])
        }
    }
    scenario(
        "24 merge of 4 subjects, each sent from its own thread", units: sends, expected: contendedSum,
        [
            "loop": { HandWritten.lockedSends(sends, threads: 4, subscribers: 1) },
            "Sluice": { ScenariosSluice.contendedMerge(sends, threads: 4) },
            "SluiceReference": { ScenariosReference.contendedMerge(sends, threads: 4) },
        ])
    scenario(
        "25 receive(on: DispatchQueue) from 2 producer threads", units: sends, expected: contendedSum,
        [
            "loop": { HandWritten.asyncPerValue(sends, queue: deliveryQueue, producers: 2) },
            "Sluice": { ScenariosSluice.receiveOnQueue(sends, queue: deliveryQueue, producers: 2) },
            "SluiceReference": { ScenariosReference.receiveOnQueue(sends, queue: deliveryQueue, producers: 2) },
            "OpenCombine": { ScenariosOpenCombine.receiveOnQueue(sends, queue: deliveryQueue, producers: 2) },
        ])

    let appInput = Array(0..<sends)
    scenario(
        "14 @Published set → sink", units: sends, expected: HandWritten.sum(appInput),
        [
            "loop": { HandWritten.sum(appInput) },
            "Sluice": { ScenariosSluice.publishedSets(sends) },
            "SluiceReference": { ScenariosReference.publishedSets(sends) },
            "OpenCombine": { ScenariosOpenCombine.publishedSets(sends) },
        ])
    // "AsyncSequence" here is an AsyncStream that holds every element, the async baseline.
    let awaited = Array(0..<oneByOneElements)
    scenario(
        "15 for await over publisher.values", units: oneByOneElements, expected: HandWritten.sum(awaited),
        [
            "loop": { HandWritten.sum(awaited) },
            "Sluice": { AsyncBaselines.blocking { await ScenariosSluice.valuesSum(awaited) } },
            "SluiceReference": { AsyncBaselines.blocking { await ScenariosReference.valuesSum(awaited) } },
            "OpenCombine": { AsyncBaselines.blocking { await ScenariosOpenCombine.valuesSum(awaited) } },
            "AsyncSequence": { AsyncBaselines.streamOf(awaited) },
        ])

    // SluiceExt (OpenCombine has none of these).
    for subscribers in [1, 10] {
        scenario(
            "16 share(replay: 1) send to \(subscribers) sink(s)", units: sends,
            expected: HandWritten.subjectSend(sends, subscribers: subscribers),
            [
                "loop": { HandWritten.subjectSend(sends, subscribers: subscribers) },
                "Sluice": { ScenariosSluice.ShareReplayFixture(subscribers: subscribers).send(sends) },
                "SluiceReference": { ScenariosReference.ShareReplayFixture(subscribers: subscribers).send(sends) },
            ])
    }
    scenario(
        "17 withLatestFrom per element", units: combined, expected: HandWritten.sum(combinedInput) &+ combined,
        [
            "loop": { HandWritten.sum(combinedInput) &+ combined },
            "Sluice": { ScenariosSluice.withLatestFromSum(combinedInput) },
            "SluiceReference": { ScenariosReference.withLatestFromSum(combinedInput) },
        ])
    scenario(
        "19 amb of two subjects, per value", units: sends, expected: HandWritten.subjectSend(sends, subscribers: 1),
        [
            "loop": { HandWritten.subjectSend(sends, subscribers: 1) },
            "Sluice": { ScenariosSluice.AmbFixture().send(sends) },
            "SluiceReference": { ScenariosReference.AmbFixture().send(sends) },
        ])
    let quarters = (0..<4).map { Array(combinedInput[($0 * combined / 4)..<(($0 + 1) * combined / 4)]) }
    scenario(
        "20 Collection.zip() of four sequences, per element", units: combined, expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.zipManySum(quarters) },
            "SluiceReference": { ScenariosReference.zipManySum(quarters) },
        ])
    scenario(
        "21 Collection.merge() of four sequences, per element", units: combined,
        expected: HandWritten.sum(combinedInput),
        [
            "loop": { HandWritten.sum(combinedInput) },
            "Sluice": { ScenariosSluice.mergeManySum(quarters) },
            "SluiceReference": { ScenariosReference.mergeManySum(quarters) },
        ])
    scenario(
        "22 Collection.combineLatest() of four subjects, per send", units: sends,
        expected: HandWritten.combineLatestManySends(sends),
        [
            "loop": { HandWritten.combineLatestManySends(sends) },
            "Sluice": { ScenariosSluice.combineLatestManySends(sends) },
            "SluiceReference": { ScenariosReference.combineLatestManySends(sends) },
        ])
    // "AsyncSequence" here is `for await` over the same AsyncStream.
    scenario(
        "18 AsyncSequence.publisher per element", units: oneByOneElements, expected: HandWritten.sum(awaited),
        [
            "loop": { HandWritten.sum(awaited) },
            "Sluice": { ScenariosSluice.asyncSequencePublisherSum(awaited) },
            "SluiceReference": { ScenariosReference.asyncSequencePublisherSum(awaited) },
            "AsyncSequence": { AsyncBaselines.streamOf(awaited) },
        ])
}
