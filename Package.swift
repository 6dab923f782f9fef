// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Sluice",
    products: [
        .library(name: "Sluice", targets: ["Sluice"]),
        .library(name: "SluiceReference", targets: ["SluiceReference"]),
    ],
    targets: [
        .target(name: "Sluice"),
        .target(name: "SluiceReference"),
        // The conformance suite is written once (Tests/Conformance) and compiled against each
        // implementation: each per-implementation test target links the shared folder (a symlink).
        .testTarget(
            name: "SluiceReferenceConformanceTests",
            dependencies: ["SluiceReference"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
        .testTarget(
            name: "SluiceConformanceTests",
            dependencies: ["Sluice"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
