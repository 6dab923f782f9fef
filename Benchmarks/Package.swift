// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import PackageDescription

// The benchmark harness is a package of its own, so that the root package's `swift test` stays light.
//
// The scenario sources (Scenarios/*.swift) are compiled three times, against Sluice,
// SluiceReference and OpenCombine 0.14.0: each ScenariosX target links them with symlinks and picks
// its implementation with a compilation condition. The scenario modules play the part of a user's
// module: Sluice's @inlinable code is specialised there, as it would be in an app.
let package = Package(
    name: "SluiceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Sluice", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "ScenariosSluice",
            dependencies: [
                .product(name: "Sluice", package: "Sluice"), .product(name: "SluiceExt", package: "Sluice"),
            ],
            path: "ScenariosSluice",
            swiftSettings: [.define("SLUICE")]
        ),
        .target(
            name: "ScenariosReference",
            dependencies: [
                .product(name: "SluiceReference", package: "Sluice"),
                .product(name: "SluiceReferenceExt", package: "Sluice"),
            ],
            path: "ScenariosReference",
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .target(
            name: "ScenariosOpenCombine",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "ScenariosOpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]
        ),
        .target(name: "CCallgrind", path: "Tools/CCallgrind"),
        .executableTarget(
            name: "InstructionCounts",
            dependencies: ["ScenariosSluice", "ScenariosReference", "ScenariosOpenCombine", "CCallgrind"],
            path: "Tools/InstructionCounts"
        ),
        .executableTarget(
            name: "SluiceBenchmarks",
            dependencies: [
                "ScenariosSluice", "ScenariosReference", "ScenariosOpenCombine",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "SluiceBenchmarks",
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
