// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceReference", targets: ["SluiceReference"]),
        .library(name: "SluiceTesting", targets: ["SluiceTesting"]),
        .library(name: "SluiceReferenceTesting", targets: ["SluiceReferenceTesting"]),
    ],
    targets: [
        .target(name: "Sluice"),
        .target(name: "SluiceReference"),
        // The test kit (virtual-time TestScheduler, ...), written once in Sources/SluiceTesting and
        // compiled against each implementation (SluiceReferenceTesting links that folder, a symlink).
        .target(name: "SluiceTesting", dependencies: ["Sluice"]),
        .target(
            name: "SluiceReferenceTesting",
            dependencies: ["SluiceReference"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        // The conformance suite is written once (Tests/Conformance) and compiled against each
        // implementation: each per-implementation test target links the shared folder (a symlink).
        // Differential testing (issue 5): a program language independent of both implementations,
        // one interpreter source compiled against each (Sources/Differential{Sluice,Reference}/
        // Interpreter is a symlink to Sources/DifferentialInterpreter), a seeded test suite and a
        // libFuzzer target (scripts/fuzz).
        .target(name: "DifferentialProgram"),
        .target(name: "DifferentialSluice", dependencies: ["Sluice", "SluiceTesting", "DifferentialProgram"]),
        .target(
            name: "DifferentialReference",
            dependencies: ["SluiceReference", "SluiceReferenceTesting", "DifferentialProgram"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .executableTarget(
            name: "DifferentialFuzz",
            dependencies: ["DifferentialProgram", "DifferentialSluice", "DifferentialReference"]
        ),
        .testTarget(
            name: "DifferentialTests",
            dependencies: ["DifferentialProgram", "DifferentialSluice", "DifferentialReference"]
        ),
        .testTarget(
            name: "SluiceReferenceConformanceTests",
            dependencies: ["SluiceReference", "SluiceReferenceTesting"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .testTarget(
            name: "SluiceConformanceTests",
            dependencies: ["Sluice", "SluiceTesting"]
        ),
        // Stress scenarios under real threads (issue 5): written once in Sources/StressScenarios and
        // compiled against each implementation (each target links that folder, a symlink), run by
        // the SluiceStress executable (scripts/stress) and, small, by StressTests in `swift test`.
        .target(name: "StressKit"),
        .target(name: "SluiceStressScenarios", dependencies: ["Sluice", "StressKit"]),
        .target(
            name: "SluiceReferenceStressScenarios",
            dependencies: ["SluiceReference", "StressKit"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .executableTarget(
            name: "SluiceStress",
            dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"]
        ),
        .testTarget(
            name: "StressTests",
            dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
