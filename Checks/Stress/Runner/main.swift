// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Runs every stress scenario against Sluice and SluiceReference at a given scale and prints, per
// scenario and implementation, the events pushed, the threads, the time and PASS/FAIL with each
// violated invariant. Exits 1 if anything failed.
//
//   SluiceStress [--scale N] [--only SUBSTRING] [--list]
//   (scripts/stress builds it in release and runs it; scripts/stress --tsan under the thread sanitizer)
import Foundation
import SluiceReferenceStressScenarios
import SluiceStressScenarios
import StressKit

var scale = 1_000_000
var only: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--scale":
        guard let value = arguments.popFirst().flatMap({ Int($0.replacingOccurrences(of: "_", with: "")) }), value > 0
        else {
            FileHandle.standardError.write("--scale needs a positive number\n".data(using: .utf8)!)
            exit(2)
        }
        scale = value
    case "--only":
        only = arguments.popFirst()
    case "--list":
        for scenario in SluiceStressScenarios.allScenarios { print("\(scenario.name): \(scenario.summary)") }
        exit(0)
    default:
        FileHandle.standardError.write(
            "usage: SluiceStress [--scale N] [--only SUBSTRING] [--list]\n".data(using: .utf8)!)
        exit(2)
    }
}

let implementations: [(name: String, scenarios: [StressScenario])] = [
    (SluiceStressScenarios.implementation, SluiceStressScenarios.allScenarios),
    (SluiceReferenceStressScenarios.implementation, SluiceReferenceStressScenarios.allScenarios),
]

print("Sluice stress, scale \(scale) events per scenario")
print("scenario                           implementation       events thr      time  result")
var failures = 0
for index in SluiceStressScenarios.allScenarios.indices {
    for implementation in implementations {
        let scenario = implementation.scenarios[index]
        if let only, !scenario.name.contains(only) { continue }
        let outcome = measure(scenario, scale: scale)
        print(row(scenario: scenario.name, implementation: implementation.name, outcome))
        if !outcome.notes.isEmpty { print("    (\(outcome.notes))") }
        for violation in capped(outcome.violations, limit: 8) { print("    violated: \(violation)") }
        if !outcome.violations.isEmpty { failures += 1 }
        fflush(nil)
    }
}
if only == nil || only.map({ "shrunk".contains($0) || $0.hasPrefix("shrunk") }) == true {
    for implementation in [
        (SluiceStressScenarios.implementation, SluiceStressScenarios.shrunkCases),
        (SluiceReferenceStressScenarios.implementation, SluiceReferenceStressScenarios.shrunkCases),
    ] {
        for shrunk in implementation.1 {
            let violations = shrunk.run()
            let name = shrunk.name.padding(toLength: 34, withPad: " ", startingAt: 0)
            let impl = implementation.0.padding(toLength: 16, withPad: " ", startingAt: 0)
            print("\(name) \(impl)          1   1  (single-threaded)  \(violations.isEmpty ? "PASS" : "FAIL")")
            for violation in violations { print("    violated: \(violation)") }
            if !violations.isEmpty { failures += 1 }
        }
    }
}
print(failures == 0 ? "stress: all passed" : "stress: \(failures) scenario run(s) FAILED")
exit(failures == 0 ? 0 : 1)
