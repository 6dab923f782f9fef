// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// Foundation's coders as the top-level coders `encode(encoder:)` and `decode(type:decoder:)` take.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

extension JSONEncoder: TopLevelEncoder {}

extension JSONDecoder: TopLevelDecoder {}

extension PropertyListEncoder: TopLevelEncoder {}

extension PropertyListDecoder: TopLevelDecoder {}
