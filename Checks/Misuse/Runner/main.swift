// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The misuse suite: every scenario of Checks/Misuse/Scenarios against Sluice and SluiceReference,
// each in a child process of its own with a timeout, checked against the answer it owes (a trap
// whose message names the rule, a clean result, bounded memory). Prints a table (scenario, the
// expected answer, Sluice, SluiceReference) and exits 1 on any deviation.
//
//   SluiceMisuse [--only SUBSTRING] [--timeout SECONDS] [--list]
//   SluiceMisuse --child IMPLEMENTATION NAME      (runs one scenario; what the parent spawns)
//   (scripts/misuse builds it, in release and in debug, and runs it)
import Foundation
import MisuseKit
import SluiceMisuseScenarios
import SluiceReferenceMisuseScenarios

let implementations: [(name: String, scenarios: [MisuseScenario])] = [
    (SluiceMisuseScenarios.implementation, SluiceMisuseScenarios.allScenarios()),
    (SluiceReferenceMisuseScenarios.implementation, SluiceReferenceMisuseScenarios.allScenarios()),
]

func usage() -> Never {
    FileHandle.standardError.write(
        Data("usage: SluiceMisuse [--only SUBSTRING] [--timeout SECONDS] [--list] | --child IMPL NAME\n".utf8))
    exit(2)
}

var only: String?
var timeout = 60.0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--child":
        guard let implementation = arguments.popFirst(), let name = arguments.popFirst(),
            let scenario = implementations.first(where: { $0.name == implementation })?.scenarios
                .first(where: { $0.name == name })
        else { usage() }
        scenario.run()
        exit(0)
    case "--only": only = arguments.popFirst() ?? { usage() }()
    case "--timeout": timeout = arguments.popFirst().flatMap(Double.init) ?? { usage() }()
    case "--list":
        for scenario in implementations[0].scenarios { print("\(scenario.name): \(scenario.expectation)") }
        exit(0)
    default: usage()
    }
}

func cell(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
}

print("| scenario | expected | \(implementations.map(\.name).joined(separator: " | ")) |")
print("|---|---|\(implementations.map { _ in "---|" }.joined())")
var failures: [String] = []
var ran = 0
for index in implementations[0].scenarios.indices {
    let scenario = implementations[0].scenarios[index]
    if let only, !scenario.name.contains(only) { continue }
    var cells: [String] = []
    for implementation in implementations {
        let mine = implementation.scenarios[index]
        guard mine.name == scenario.name else {
            fatalError("the implementations list their scenarios in one order: \(mine.name) ≠ \(scenario.name)")
        }
        let outcome = runChild(["--child", implementation.name, mine.name], timeout: timeout)
        let verdict = outcome.verdict(for: mine.expectation)
        ran += 1
        cells.append(verdict.passed ? verdict.summary : "**FAIL** \(verdict.summary)")
        if !verdict.passed { failures.append("\(scenario.name) [\(implementation.name)]: \(verdict.summary)") }
    }
    print("| \(scenario.name) | \(scenario.expectation) | \(cells.joined(separator: " | ")) |")
    fflush(nil)
}
for failure in failures { print("FAILED: \(failure)") }
print("misuse: \(ran - failures.count) passed, \(failures.count) failed")
exit(failures.isEmpty ? 0 : 1)
