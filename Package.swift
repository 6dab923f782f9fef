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
        // implementation: every per-implementation test target links the shared folder.
        .testTarget(
            name: "SluiceReferenceConformanceTests",
            dependencies: ["SluiceReference"],
            swiftSettings: [.define("SLUICE_REFERENCE")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
