// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Runs one Sluice scenario, or its hand-written loop, between callgrind client requests, so that
// `valgrind --tool=callgrind --instr-atstart=no` counts exactly its instructions (usage below).
// `scripts/bench-check` runs each under callgrind, compares the totals with
// perf/baselines/instructions.json, and writes the per-unit table perf/instructions.md.
import CCallgrind
import ScenariosSluice

#if canImport(Glibc)
import Glibc
#endif

let elements = Array(0..<100_000)
/// Built before the count starts, as `elements` is: the scenario counts the zip, not the arrays.
let elements200k = Array(0..<200_000)
let halves = (Array(elements[..<50_000]), Array(elements[50_000...]))
let eighths = (0..<8).map { Array(elements[($0 * 12_500)..<(($0 + 1) * 12_500)]) }
let quarters = (0..<4).map { Array(elements[($0 * 25_000)..<(($0 + 1) * 25_000)]) }

/// A scenario: what the benchmark's table calls it, the units it counts (elements, sends,
/// subscriptions or lifecycles), Sluice's run, and the same work as a hand-written loop (the
/// benchmark's floor, `HandWritten`, or for an app pipeline its twin written with `Callbacks`).
/// `lifecycles` marks the scenarios whose unit subscribes and cancels: their lookups are the subscribe
/// and cancel paths' budget; every other scenario's unit is a value, which must make none.
struct Scenario {
    let title: String
    let units: Int
    var lifecycles = false
    let run: () -> Int
    let loop: () -> Int
}

let scenarios: KeyValuePairs<String, Scenario> = [
    // The app pipelines (Apps.swift), each beside its twin written with callbacks.
    "app.form": Scenario(
        title: "A1 a form: three @Published fields combined, validated, assigned back (per edit)", units: 10_000,
        run: { formEdits(10_000) }, loop: { Callbacks.formEdits(10_000) }),
    "app.search.just": Scenario(
        title: "A2 search as you type, switchToLatest over Just (per query)", units: 10_000,
        run: { searchSynchronous(10_000) }, loop: { Callbacks.searchSynchronous(10_000) }),
    "app.search.future": Scenario(
        title: "A3 search as you type, switchToLatest over Deferred { Future } (per query)", units: 10_000,
        run: { searchFuture(10_000) }, loop: { Callbacks.searchAsynchronous(10_000) }),
    "app.bus": Scenario(
        title: "A4 an event bus: 16 subscribers, filter by kind, map(\\.payload) (per send)", units: 10_000,
        run: { eventBus(10_000) }, loop: { Callbacks.eventBus(10_000) }),
    "app.sharedRequest": Scenario(
        title: "A5 a request shared by three views (per lifecycle)", units: 10_000, lifecycles: true,
        run: { sharedRequests(10_000) }, loop: { Callbacks.sharedRequests(10_000) }),
    "app.batchedRequests": Scenario(
        title: "A6 flatMap(maxPublishers: .max(4)) of requests, collect(10) (per id)", units: 10_000,
        run: { batchedRequests(10_000) }, loop: { Callbacks.batchedRequests(10_000) }),
    "app.screen": Scenario(
        title: "A7 a screen: map.filter.removeDuplicates.sink built, fed once, cancelled (per lifecycle)",
        units: 10_000, lifecycles: true, run: { screenLifecycles(10_000) }, loop: { Callbacks.screenLifecycles(10_000) }
    ),
    "sequence.map.filter.sink": Scenario(
        title: "1 sequence.map.filter.sink", units: 100_000,
        run: { sequenceMapFilter(elements) }, loop: { HandWritten.mapFilter(elements) }),
    "sequence.eager": Scenario(
        title: "1e the same on Combine's eager overloads", units: 100_000,
        run: { sequenceMapFilterEager(elements) }, loop: { HandWritten.mapFilter(elements) }),
    "eight-stage": Scenario(
        title: "2 eight-stage map/filter chain", units: 100_000,
        run: { eightStage(elements) }, loop: { HandWritten.eightStage(elements) }),
    "sixteen-stage": Scenario(
        title: "2b sixteen-stage chain", units: 100_000,
        run: { sixteenStage(elements) }, loop: { HandWritten.sixteenStage(elements) }),
    "thirty-two-stage": Scenario(
        title: "2c thirty-two-stage chain", units: 100_000,
        run: { thirtyTwoStage(elements) }, loop: { HandWritten.thirtyTwoStage(elements) }),
    "mixed-stages": Scenario(
        title: "2d eight-stage mixed chain", units: 100_000,
        run: { mixedStages(elements) }, loop: { HandWritten.mixedStages(elements) }),
    "just.map.filter.sink": Scenario(
        title: "3 Just.map.filter.sink, per subscription", units: 1_000, lifecycles: true,
        run: { justMapFilter(1_000) }, loop: { HandWritten.justMapFilter(1_000) }),
    "passthrough.send": Scenario(
        title: "4 PassthroughSubject.send to 1 sink", units: 100_000,
        run: { SubjectFixture(subscribers: 1).sendPassthrough(100_000) },
        loop: { HandWritten.subjectSend(100_000, subscribers: 1) }),
    "passthrough.send10": Scenario(
        title: "4 PassthroughSubject.send to 10 sinks", units: 10_000,
        run: { SubjectFixture(subscribers: 10).sendPassthrough(10_000) },
        loop: { HandWritten.subjectSend(10_000, subscribers: 10) }),
    "currentValue.send": Scenario(
        title: "4c CurrentValueSubject.send to 1 sink", units: 100_000,
        run: { SubjectFixture(subscribers: 1).sendCurrentValue(100_000) },
        loop: { HandWritten.subjectSend(100_000, subscribers: 1) }),
    // share(): the multicast that SluiceExt's share(replay:) builds on, with a PassthroughSubject.
    "share.send": Scenario(
        title: "4s share() send to 1 sink", units: 100_000,
        run: { ShareFixture(subscribers: 1).send(100_000) },
        loop: { HandWritten.subjectSend(100_000, subscribers: 1) }),
    "share.send10": Scenario(
        title: "4s share() send to 10 sinks", units: 10_000,
        run: { ShareFixture(subscribers: 10).send(10_000) },
        loop: { HandWritten.subjectSend(10_000, subscribers: 10) }),
    "scan": Scenario(title: "5 scan", units: 100_000, run: { scan(elements) }, loop: { HandWritten.sum(elements) }),
    "reduce": Scenario(
        title: "5r reduce", units: 100_000, run: { reduce(elements) }, loop: { HandWritten.sum(elements) }),
    "demand.max1": Scenario(
        title: "6 demand .max(1) per element", units: 100_000,
        run: { demandOneByOne(elements) }, loop: { HandWritten.sum(elements) }),
    "13-stage.lifecycle": Scenario(
        title: "7 13-stage build+subscribe+send+cancel", units: 1_000, lifecycles: true,
        run: { thirteenStageLifecycle(1_000) }, loop: { HandWritten.sum(Array(elements[..<1_000])) }),
    // The combining scenarios (13, receive(on:), crosses threads). Zip also at 2·10^5 pairs: its
    // cost must stay linear.
    "flatMap.just": Scenario(
        title: "8 flatMap { Just }", units: 100_000,
        run: { flatMapJust(elements) }, loop: { HandWritten.tripledSum(elements) }),
    "merge.two": Scenario(
        title: "9 merge of two sequences", units: 100_000,
        run: { mergeTwo(halves.0, halves.1) }, loop: { HandWritten.sum(elements) }),
    "merge.twoTypes": Scenario(
        title: "9b merge of two types", units: 100_000,
        run: { mergeTwoTypes(halves.0, halves.1) }, loop: { HandWritten.sum(elements) }),
    "merge.eight": Scenario(
        title: "9c merge of eight sequences", units: 100_000,
        run: { mergeEight(eighths) }, loop: { HandWritten.sum(elements) }),
    "zip.two": Scenario(
        title: "10 zip of two sequences, per pair", units: 100_000,
        run: { zipTwo(elements, elements) }, loop: { HandWritten.pairwiseSum(elements, elements) }),
    "zip.two.200k": Scenario(
        title: "10 zip of two sequences (2·10^5 pairs)", units: 200_000,
        run: { zipTwo(elements200k, elements200k) }, loop: { HandWritten.pairwiseSum(elements200k, elements200k) }),
    "combineLatest.subjects": Scenario(
        title: "11 combineLatest of two subjects, per send", units: 100_000,
        run: { combineLatestAlternating(100_000) }, loop: { HandWritten.combineLatestAlternating(100_000) }),
    "switchToLatest.just": Scenario(
        title: "12 switchToLatest over Just", units: 100_000,
        run: { switchToLatestJust(elements) }, loop: { HandWritten.sum(elements) }),
    // flatMap and switchToLatest of `Just` over a subject: the unfused machines.
    "flatMap.just.subject": Scenario(
        title: "8s flatMap { Just } over a subject", units: 100_000,
        run: { flatMapJustSubject(100_000) }, loop: { HandWritten.tripledSum(elements) }),
    "switchToLatest.just.subject": Scenario(
        title: "12s switchToLatest over Just, over a subject", units: 100_000,
        run: { switchToLatestJustSubject(100_000) }, loop: { HandWritten.sum(elements) }),
    "published.set": Scenario(
        title: "14 @Published set → sink", units: 100_000,
        run: { publishedSets(100_000) }, loop: { HandWritten.sum(elements) }),
    // SluiceExt: share(replay: 1) into 1 and 10 sinks, withLatestFrom per element.
    "shareReplay.send": Scenario(
        title: "16 share(replay: 1) send to 1 sink", units: 100_000,
        run: { ShareReplayFixture(subscribers: 1).send(100_000) },
        loop: { HandWritten.subjectSend(100_000, subscribers: 1) }),
    "shareReplay.send10": Scenario(
        title: "16 share(replay: 1) send to 10 sinks", units: 10_000,
        run: { ShareReplayFixture(subscribers: 10).send(10_000) },
        loop: { HandWritten.subjectSend(10_000, subscribers: 10) }),
    "withLatestFrom": Scenario(
        title: "17 withLatestFrom per element", units: 100_000,
        run: { withLatestFromSum(elements) }, loop: { HandWritten.sum(elements) &+ elements.count }),
    // SluiceExt's amb, and its operators over a collection of four publishers.
    "receiveOn.runLoop": Scenario(
        title: "13r receive(on:) a serial run loop, per value", units: 100_000,
        run: { receiveOnRunLoop(100_000) }, loop: { HandWritten.sum(elements) }),
    "delay.runLoop": Scenario(
        title: "13r delay on a serial run loop, per value", units: 100_000,
        run: { delayOnRunLoop(100_000) }, loop: { HandWritten.sum(elements) }),
    "amb.send": Scenario(
        title: "19 amb of two subjects, per value", units: 100_000,
        run: { AmbFixture().send(100_000) }, loop: { HandWritten.subjectSend(100_000, subscribers: 1) }),
    "zipMany.four": Scenario(
        title: "20 Collection.zip() of four sequences, per element", units: 100_000,
        run: { zipManySum(quarters) }, loop: { HandWritten.sum(elements) }),
    "mergeMany.four": Scenario(
        title: "21 Collection.merge() of four sequences, per element", units: 100_000,
        run: { mergeManySum(quarters) }, loop: { HandWritten.sum(elements) }),
    "combineLatestMany.four": Scenario(
        title: "22 Collection.combineLatest() of four subjects, per send", units: 100_000,
        run: { combineLatestManySends(100_000) }, loop: { HandWritten.combineLatestManySends(100_000) }),
]

// Usage: InstructionCounts                    the scenarios' names
//        InstructionCounts --table            name, units, title and path ("values" or
//                                             "lifecycles") of each, tab-separated
//        InstructionCounts <scenario> [loop]  counts Sluice's run, or the hand-written loop's
//        InstructionCounts <scenario> SluiceReference|OpenCombine
//                                             an app pipeline's run on a peer (Peers.swift)
let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    for (name, _) in scenarios { print(name) }
    exit(0)
}
if name == "--table" {
    for (name, scenario) in scenarios {
        print("\(name)\t\(scenario.units)\t\(scenario.title)\t\(scenario.lifecycles ? "lifecycles" : "values")")
    }
    exit(0)
}
guard let scenario = scenarios.first(where: { $0.key == name })?.value else {
    print("unknown scenario \(name)")
    exit(2)
}
let variant = arguments.dropFirst().first
let run: () -> Int
switch variant {
case nil: run = scenario.run
case "loop": run = scenario.loop
case let peer?:
    guard let peerRun = peers[name]?.first(where: { $0.key == peer })?.value else {
        print("\(name) has no run on \(peer)")
        exit(2)
    }
    run = { peerRun(scenario.units) }
}
// The first run pays the process's one-time costs (conformance lookups, type metadata): the count
// is of the second, the steady state a long-running program sees.
let warmUp = run()
cg_start()
let checksum = run()
cg_stop()
guard checksum == warmUp, checksum == scenario.loop() else {
    print("\(name): checksum mismatch (\(checksum), warm-up \(warmUp), loop \(scenario.loop()))")
    exit(1)
}
print("\(name) checksum \(checksum)")
