// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Runs one Sluice scenario between callgrind client requests, so that
// `valgrind --tool=callgrind --instr-atstart=no` counts exactly its instructions.
// Usage: InstructionCounts <scenario>   (no argument: list the scenarios)
// `scripts/bench-check` runs each under callgrind and compares the totals with perf/instructions.json.
import CCallgrind
import ScenariosSluice

#if canImport(Glibc)
import Glibc
#endif

let elements = Array(0..<100_000)
/// Built before the count starts, as `elements` is: the scenario counts the zip, not the arrays.
let elements200k = Array(0..<200_000)
let scenarios: KeyValuePairs<String, () -> Int> = [
    "sequence.map.filter.sink": { sequenceMapFilter(elements) },
    "sequence.eager": { sequenceMapFilterEager(elements) },
    "eight-stage": { eightStage(elements) },
    "sixteen-stage": { sixteenStage(elements) },
    "thirty-two-stage": { thirtyTwoStage(elements) },
    "mixed-stages": { mixedStages(elements) },
    "just.map.filter.sink": { justMapFilter(1_000) },
    "passthrough.send": {
        let fixture = SubjectFixture(subscribers: 1)
        return fixture.sendPassthrough(100_000)
    },
    "currentValue.send": {
        let fixture = SubjectFixture(subscribers: 1)
        return fixture.sendCurrentValue(100_000)
    },
    "passthrough.send10": {
        let fixture = SubjectFixture(subscribers: 10)
        return fixture.sendPassthrough(10_000)
    },
    // share(): the multicast that SluiceExt's share(replay:) builds on, with a PassthroughSubject.
    "share.send": { ShareFixture(subscribers: 1).send(100_000) },
    "share.send10": { ShareFixture(subscribers: 10).send(10_000) },
    "scan": { scan(elements) },
    "reduce": { reduce(elements) },
    "demand.max1": { demandOneByOne(elements) },
    "13-stage.lifecycle": { thirteenStageLifecycle(1_000) },
    "published.set": { publishedSets(100_000) },
    // The combining scenarios (8-12 of the benchmark; 13, receive(on:), crosses threads). Zip also at
    // 2·10^5 pairs: its cost must stay linear.
    "flatMap.just": { flatMapJust(elements) },
    "merge.two": { mergeTwo(Array(elements[..<50_000]), Array(elements[50_000...])) },
    "merge.twoTypes": { mergeTwoTypes(Array(elements[..<50_000]), Array(elements[50_000...])) },
    "merge.eight": { mergeEight((0..<8).map { Array(elements[($0 * 12_500)..<(($0 + 1) * 12_500)]) }) },
    "zip.two": { zipTwo(elements, elements) },
    "zip.two.200k": { zipTwo(elements200k, elements200k) },
    "combineLatest.subjects": { combineLatestAlternating(100_000) },
    "switchToLatest.just": { switchToLatestJust(elements) },
    // flatMap and switchToLatest of `Just` over a subject: the unfused machines.
    "flatMap.just.subject": { flatMapJustSubject(100_000) },
    "switchToLatest.just.subject": { switchToLatestJustSubject(100_000) },
    // SluiceExt: share(replay: 1) into 1 and 10 sinks, withLatestFrom per element.
    "shareReplay.send": { ShareReplayFixture(subscribers: 1).send(100_000) },
    "shareReplay.send10": { ShareReplayFixture(subscribers: 10).send(10_000) },
    "withLatestFrom": { withLatestFromSum(elements) },
    // SluiceExt's amb, and its operators over a collection of four publishers.
    "amb.send": { AmbFixture().send(100_000) },
    "zipMany.four": { zipManySum((0..<4).map { Array(elements[($0 * 25_000)..<(($0 + 1) * 25_000)]) }) },
    "mergeMany.four": { mergeManySum((0..<4).map { Array(elements[($0 * 25_000)..<(($0 + 1) * 25_000)]) }) },
    "combineLatestMany.four": { combineLatestManySends(100_000) },
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first else {
    for (name, _) in scenarios { print(name) }
    exit(0)
}
guard let run = scenarios.first(where: { $0.key == name })?.value else {
    print("unknown scenario \(name)")
    exit(2)
}
cg_start()
let checksum = run()
cg_stop()
print("\(name) checksum \(checksum)")
