// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import PackageDescription

/// Where Apple's Combine is not: there `SluiceShim` is Sluice and SluiceFoundation.
let nonApple: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

/// The machinery that checks the two implementations against each other; none of it ships. Each
/// family in Checks/ is written once and compiled against each implementation: its `Sluice` and
/// `Reference` folders link the shared sources (a symlink) and the second defines SLUICE_REFERENCE.
/// - Differential (scripts/fuzz, DifferentialTests): one interpreter of the program language
///   (SluicePrograms, which ships: the test kit's equivalence check is built on it) and a
///   libFuzzer target.
/// - Stress (scripts/stress, StressTests): scenarios under real threads.
/// - Misuse (scripts/misuse): API violations, each run in a child process of its own and checked
///   against the answer it owes.
let checks: [Target] = [
    .target(
        name: "DifferentialSluice",
        dependencies: ["Sluice", "SluiceTesting", "SluiceExt", "SluicePrograms"],
        path: "Checks/Differential/Sluice"
    ),
    .target(
        name: "DifferentialReference",
        dependencies: ["SluiceReference", "SluiceReferenceTesting", "SluiceReferenceExt", "SluicePrograms"],
        path: "Checks/Differential/Reference",
        swiftSettings: [.define("SLUICE_REFERENCE")]
    ),
    .executableTarget(
        name: "DifferentialFuzz",
        dependencies: ["SluicePrograms", "DifferentialSluice", "DifferentialReference"],
        path: "Checks/Differential/Fuzz"
    ),
    .target(name: "StressKit", path: "Checks/Stress/Kit"),
    .target(
        name: "SluiceStressScenarios",
        dependencies: ["Sluice", "SluiceFoundation", "SluiceExt", "StressKit"],
        path: "Checks/Stress/Sluice"
    ),
    .target(
        name: "SluiceReferenceStressScenarios",
        dependencies: ["SluiceReference", "SluiceReferenceFoundation", "SluiceReferenceExt", "StressKit"],
        path: "Checks/Stress/Reference",
        swiftSettings: [.define("SLUICE_REFERENCE")]
    ),
    .executableTarget(
        name: "SluiceStress",
        dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"],
        path: "Checks/Stress/Runner"
    ),
    .target(name: "MisuseKit", path: "Checks/Misuse/Kit"),
    .target(
        name: "SluiceMisuseScenarios",
        dependencies: ["Sluice", "SluiceFoundation", "SluiceExt", "MisuseKit"],
        path: "Checks/Misuse/Sluice"
    ),
    .target(
        name: "SluiceReferenceMisuseScenarios",
        dependencies: ["SluiceReference", "SluiceReferenceFoundation", "SluiceReferenceExt", "MisuseKit"],
        path: "Checks/Misuse/Reference",
        swiftSettings: [.define("SLUICE_REFERENCE")]
    ),
    .executableTarget(
        name: "SluiceMisuse",
        dependencies: ["MisuseKit", "SluiceMisuseScenarios", "SluiceReferenceMisuseScenarios"],
        path: "Checks/Misuse/Runner"
    ),
]

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceReference", targets: ["SluiceReference"]),
        .library(name: "SluiceFoundation", targets: ["SluiceFoundation"]),
        .library(name: "SluiceReferenceFoundation", targets: ["SluiceReferenceFoundation"]),
        .library(name: "SluiceShim", targets: ["SluiceShim"]),
        .library(name: "SluicePrograms", targets: ["SluicePrograms"]),
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
        // Programs (a source, operators, subscribers, steps), their generator, shrinker and printer;
        // independent of every implementation. SluiceTesting's equivalence check and the
        // differential suite (Checks/Differential) run them.
        .target(name: "SluicePrograms"),
        // The test kit (virtual-time TestScheduler, the contract and equivalence checks, ...),
        // written once in Sources/SluiceTesting and compiled against each implementation
        // (SluiceReferenceTesting links that folder, a symlink); where Apple's Combine is, against
        // Combine (scripts/combine-check).
        .target(
            name: "SluiceTesting",
            dependencies: ["SluicePrograms", .target(name: "Sluice", condition: .when(platforms: nonApple))]
        ),
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
            dependencies: ["SluiceReference", "SluicePrograms"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        // The conformance suite is written once (Tests/Conformance) and compiled against each
        // implementation: each per-implementation test target links the shared folder (a symlink).
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
        .testTarget(
            name: "DifferentialTests",
            dependencies: ["SluicePrograms", "DifferentialSluice", "DifferentialReference"]
        ),
        .testTarget(
            name: "StressTests",
            dependencies: ["StressKit", "SluiceStressScenarios", "SluiceReferenceStressScenarios"]
        ),
    ] + checks,
    swiftLanguageModes: [.v6]
)
