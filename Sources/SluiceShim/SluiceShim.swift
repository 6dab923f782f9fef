// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

@_exported import Foundation

// One import for code that builds on Apple's platforms and everywhere else: Apple's Combine and
// Foundation's integrations of it where Combine exists, Sluice and SluiceFoundation (the same names
// and signatures) elsewhere.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import Sluice
@_exported import SluiceFoundation
#endif
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
