// swift-tools-version: 6.1
import PackageDescription

/// Where Apple's Combine is not: there `SluiceShim` is Sluice and SluiceFoundation.
let nonApple: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceReference", targets: ["SluiceReference"]),
        .library(name: "SluiceFoundation", targets: ["SluiceFoundation"]),
        .library(name: "SluiceReferenceFoundation", targets: ["SluiceReferenceFoundation"]),
        .library(name: "SluiceShim", targets: ["SluiceShim"]),
        .library(name: "SluiceTesting", targets: ["SluiceTesting"]),
        .library(name: "SluiceReferenceTesting", targets: ["SluiceReferenceTesting"]),
        .library(name: "SluiceExt", targets: ["SluiceExt"]),
        .library(name: "SluiceReferenceExt", targets: ["SluiceReferenceExt"]),
    ],
    traits: [
        .trait(
            name: "Introspection",
            description: """
                Builds Combine's `_Introspection` debugging hooks into Sluice. Off by default: without it \
                no path has an instruction more (SluiceReference always has them).
                """)
    ],
    dependencies: [
        // Test-only: the HTTP server on 127.0.0.1 that URLSession's tests talk to.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1")
    ],
    targets: [
        .target(name: "Sluice"),
        .target(name: "SluiceReference"),
        // Foundation's integrations (NotificationCenter, Timer, URLSession, coders, RunLoop and
        // OperationQueue schedulers), written once in Sources/SluiceFoundation over the public API and
        // compiled against each implementation (SluiceReferenceFoundation links that folder).
        .target(name: "SluiceFoundation", dependencies: ["Sluice"]),
        .target(
            name: "SluiceReferenceFoundation",
            dependencies: ["SluiceReference"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        // `import SluiceShim`: Apple's Combine where it exists, Sluice and SluiceFoundation elsewhere.
        .target(
            name: "SluiceShim",
            dependencies: [
                .target(name: "Sluice", condition: .when(platforms: nonApple)),
                .target(name: "SluiceFoundation", condition: .when(platforms: nonApple)),
            ]
        ),
        // The test kit (virtual-time TestScheduler, ...), written once in Sources/SluiceTesting and
        // compiled against each implementation (SluiceReferenceTesting links that folder, a symlink).
        .target(name: "SluiceTesting", dependencies: ["Sluice"]),
        // Beyond Combine: what Combine users reach for (ReplaySubject, share(replay:), ...), a separate
        // product so that `Sluice` stays exactly Combine. Each implementation has its own primitives
        // (Subjects/, ...); what is composed of Combine's own operators is written once, in
        // Sources/SluiceExt/Composed, which SluiceReferenceExt links (a symlink).
        .target(name: "SluiceExt", dependencies: ["Sluice"]),
        .target(
            name: "SluiceReferenceExt",
            dependencies: ["SluiceReference"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        // The seeds' patterns as small apps' code (search as you type, form validation, a network
        // call, a view model), tested in SluiceConformanceTests/ExamplesTests.swift.
        .target(name: "SluiceExamples", dependencies: ["Sluice", "SluiceFoundation"], path: "Examples"),
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
        .target(
            name: "DifferentialSluice", dependencies: ["Sluice", "SluiceTesting", "SluiceExt", "DifferentialProgram"]
        ),
        .target(
            name: "DifferentialReference",
            dependencies: ["SluiceReference", "SluiceReferenceTesting", "SluiceReferenceExt", "DifferentialProgram"],
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
            dependencies: [
                "SluiceReference", "SluiceReferenceTesting", "SluiceReferenceFoundation", "SluiceReferenceExt",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .testTarget(
            name: "SluiceConformanceTests",
            dependencies: [
                "Sluice", "SluiceTesting", "SluiceFoundation", "SluiceExt", "SluiceShim", "SluiceExamples",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]
        ),
        // Stress scenarios under real threads (issue 5): written once in Sources/StressScenarios and
        // compiled against each implementation (each target links that folder, a symlink), run by
        // the SluiceStress executable (scripts/stress) and, small, by StressTests in `swift test`.
        .target(name: "StressKit"),
        .target(name: "SluiceStressScenarios", dependencies: ["Sluice", "SluiceExt", "StressKit"]),
        .target(
            name: "SluiceReferenceStressScenarios",
            dependencies: ["SluiceReference", "SluiceReferenceExt", "StressKit"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .executableTarget(
            name: "SluiceStress",
            dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"]
        ),
        // The misuse suite (scripts/misuse): scenarios written once in Sources/MisuseScenarios and
        // compiled against each implementation (each target links that folder, a symlink), each run
        // by SluiceMisuse in a child process of its own and checked against the answer it owes.
        .target(name: "MisuseKit"),
        .target(name: "SluiceMisuseScenarios", dependencies: ["Sluice", "SluiceFoundation", "MisuseKit"]),
        .target(
            name: "SluiceReferenceMisuseScenarios",
            dependencies: ["SluiceReference", "SluiceReferenceFoundation", "MisuseKit"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .executableTarget(
            name: "SluiceMisuse",
            dependencies: ["MisuseKit", "SluiceMisuseScenarios", "SluiceReferenceMisuseScenarios"]
        ),
        .testTarget(
            name: "StressTests",
            dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
