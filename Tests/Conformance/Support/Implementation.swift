// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The conformance suite is written once against the Combine API. Each test target compiles this
// folder against one implementation, chosen by a compilation condition in Package.swift.
#if SLUICE_REFERENCE
@_exported import SluiceReference
@_exported import SluiceReferenceFoundation
@_exported import SluiceReferenceTesting
@_exported import SluiceReferenceExt
#else
@_exported import Sluice
@_exported import SluiceFoundation
@_exported import SluiceTesting
@_exported import SluiceExt
#endif

/// The name of the implementation under test, for messages.
#if SLUICE_REFERENCE
let implementationName = "SluiceReference"
#else
let implementationName = "Sluice"
#endif
