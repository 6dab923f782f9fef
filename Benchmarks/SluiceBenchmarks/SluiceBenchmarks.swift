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
                    precondition(checksum == expected, "checksum mismatch in \(name) / \(implementation): \(checksum) != \(expected)")
                    blackHole(checksum)
                }
            }
        }
    }

    let mapFilterExpected = HandWritten.mapFilter(input)
    scenario("1 sequence.map.filter.sink", units: elements, expected: mapFilterExpected, [
        "loop": { HandWritten.mapFilter(input) },
        "Sluice": { ScenariosSluice.sequenceMapFilter(input) },
        "SluiceReference": { ScenariosReference.sequenceMapFilter(input) },
        "OpenCombine": { ScenariosOpenCombine.sequenceMapFilter(input) },
        "AsyncSequence": { AsyncBaselines.mapFilter(input) },
    ])
    scenario("1e sequence.map.filter.sink (eager overloads)", units: elements, expected: mapFilterExpected, [
        "loop": { HandWritten.mapFilter(input) },
        "Sluice": { ScenariosSluice.sequenceMapFilterEager(input) },
        "SluiceReference": { ScenariosReference.sequenceMapFilterEager(input) },
        "OpenCombine": { ScenariosOpenCombine.sequenceMapFilterEager(input) },
    ])
    scenario("2 eight-stage map/filter chain", units: elements, expected: HandWritten.eightStage(input), [
        "loop": { HandWritten.eightStage(input) },
        "Sluice": { ScenariosSluice.eightStage(input) },
        "SluiceReference": { ScenariosReference.eightStage(input) },
        "OpenCombine": { ScenariosOpenCombine.eightStage(input) },
        "AsyncSequence": { AsyncBaselines.eightStage(input) },
    ])
    scenario("3 Just.map.filter.sink per subscription", units: subscriptions, expected: HandWritten.justMapFilter(subscriptions), [
        "loop": { HandWritten.justMapFilter(subscriptions) },
        "Sluice": { ScenariosSluice.justMapFilter(subscriptions) },
        "SluiceReference": { ScenariosReference.justMapFilter(subscriptions) },
        "OpenCombine": { ScenariosOpenCombine.justMapFilter(subscriptions) },
    ])
    for subscribers in [1, 10] {
        let expected = HandWritten.subjectSend(sends, subscribers: subscribers)
        scenario("4 PassthroughSubject.send to \(subscribers) sink(s)", units: sends, expected: expected, [
            "loop": { HandWritten.subjectSend(sends, subscribers: subscribers) },
            "Sluice": { ScenariosSluice.SubjectFixture(subscribers: subscribers).sendPassthrough(sends) },
            "SluiceReference": { ScenariosReference.SubjectFixture(subscribers: subscribers).sendPassthrough(sends) },
            "OpenCombine": { ScenariosOpenCombine.SubjectFixture(subscribers: subscribers).sendPassthrough(sends) },
            "AsyncSequence": { AsyncBaselines.streamSend(sends, consumers: subscribers) },
        ])
    }
    scenario("4c CurrentValueSubject.send to 1 sink", units: sends, expected: HandWritten.subjectSend(sends, subscribers: 1), [
        "loop": { HandWritten.subjectSend(sends, subscribers: 1) },
        "Sluice": { ScenariosSluice.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
        "SluiceReference": { ScenariosReference.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
        "OpenCombine": { ScenariosOpenCombine.SubjectFixture(subscribers: 1).sendCurrentValue(sends) },
    ])
    scenario("5 scan", units: elements, expected: HandWritten.sum(input), [
        "loop": { HandWritten.sum(input) },
        "Sluice": { ScenariosSluice.scan(input) },
        "SluiceReference": { ScenariosReference.scan(input) },
        "OpenCombine": { ScenariosOpenCombine.scan(input) },
    ])
    scenario("5r reduce", units: elements, expected: HandWritten.sum(input), [
        "loop": { HandWritten.sum(input) },
        "Sluice": { ScenariosSluice.reduce(input) },
        "SluiceReference": { ScenariosReference.reduce(input) },
        "OpenCombine": { ScenariosOpenCombine.reduce(input) },
        "AsyncSequence": { AsyncBaselines.reduce(input) },
    ])
    scenario("6 demand .max(1) per element", units: oneByOneElements, expected: HandWritten.sum(oneByOneInput), [
        "loop": { HandWritten.sum(oneByOneInput) },
        "Sluice": { ScenariosSluice.demandOneByOne(oneByOneInput) },
        "SluiceReference": { ScenariosReference.demandOneByOne(oneByOneInput) },
        "OpenCombine": { ScenariosOpenCombine.demandOneByOne(oneByOneInput) },
    ])
    scenario("7 13-stage build+subscribe+send+cancel", units: lifecycles, expected: HandWritten.sum(Array(0..<lifecycles)), [
        "loop": { HandWritten.sum(Array(0..<lifecycles)) },
        "Sluice": { ScenariosSluice.thirteenStageLifecycle(lifecycles) },
        "SluiceReference": { ScenariosReference.thirteenStageLifecycle(lifecycles) },
        "OpenCombine": { ScenariosOpenCombine.thirteenStageLifecycle(lifecycles) },
    ])
}
