// The conformance suite is written once against the Combine API. Each test target compiles this
// folder against one implementation, chosen by a compilation condition in Package.swift.
#if SLUICE_REFERENCE
@_exported import SluiceReference
@_exported import SluiceReferenceFoundation
@_exported import SluiceReferenceTesting
#else
@_exported import Sluice
@_exported import SluiceFoundation
@_exported import SluiceTesting
#endif

/// The name of the implementation under test, for messages.
#if SLUICE_REFERENCE
let implementationName = "SluiceReference"
#else
let implementationName = "Sluice"
#endif
