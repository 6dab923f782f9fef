// A small, fast run of every stress scenario against both implementations, so that CI exercises
// them on every `swift test` (scripts/stress runs them at full scale).
import SluiceReferenceStressScenarios
import SluiceStressScenarios
import StressKit
import Testing

/// Known library faults, excluded here (and only here) by scenario, implementation and invariant
/// text; scripts/stress still runs and reports them. Each entry names the fault it stands for.
let knownFaults: [(scenario: String, implementation: String, invariant: String, why: String)] = [
]

/// Events per scenario: enough for real interleavings, small enough for a few seconds in all.
let testScale = 20_000

@Suite(.serialized) struct StressTests {
    static let runs: [(implementation: String, scenario: StressScenario)] =
        SluiceStressScenarios.allScenarios.map { (SluiceStressScenarios.implementation, $0) }
        + SluiceReferenceStressScenarios.allScenarios.map { (SluiceReferenceStressScenarios.implementation, $0) }

    @Test(arguments: StressTests.runs.indices)
    func scenarioHoldsItsInvariants(_ index: Int) {
        let (implementation, scenario) = Self.runs[index]
        let outcome = measure(scenario, scale: testScale)
        let unexpected = outcome.violations.filter { violation in
            !knownFaults.contains { fault in
                fault.scenario == scenario.name && fault.implementation == implementation && violation.contains(fault.invariant)
            }
        }
        #expect(unexpected.isEmpty, "\(scenario.name) on \(implementation): \(unexpected.joined(separator: "\n"))")
    }
}
