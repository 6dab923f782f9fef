// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The fast runtime's contract (locks, demand, fusion, lifetimes, specialisation, exclusivity) is an
// article of the documentation: Sources/Sluice/Sluice.docc/RuntimeContract.md.

/// The fast runtime's public machinery: the types that Sluice's `@inlinable` code names in user
/// modules (cursors, stages, folds, the introspection record), and nothing a user calls. Its
/// contract: `Sluice.docc/RuntimeContract.md`.
@_documentation(visibility: internal)
public enum _Runtime {}
