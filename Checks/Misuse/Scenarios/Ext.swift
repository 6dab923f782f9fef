// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceExt
#else
import Sluice
import SluiceExt
#endif

/// SluiceExt's misuses: Combine's rule on its own subscriptions, and the sizes its operators take.
func extViolations() -> [MisuseScenario] {
    /// 0, computed at run time so that the compiler does not see the trap coming.
    let zero = CommandLine.arguments.isEmpty ? 1 : 0
    return [
        MisuseScenario("request(.none) through amb", .traps("API violation: request(.none) on Amb's subscription")) {
            requestNone(PassthroughSubject<Int, Never>().amb(PassthroughSubject<Int, Never>()))
        },
        MisuseScenario(
            "request(.none) through withLatestFrom",
            .traps("API violation: request(.none) on WithLatestFrom's subscription")
        ) { requestNone(PassthroughSubject<Int, Never>().withLatestFrom(Just(1))) },
        MisuseScenario("nwise(0)", .traps("nwise(_:) takes windows of at least one value, not 0")) {
            _ = [1, 2].publisher.nwise(zero)
        },
        MisuseScenario(
            "flatMapBatches(of: 0)", .traps("flatMapBatches(of:): batch sizes must be positive, not 0")
        ) { _ = [Just(1)].flatMapBatches(of: zero) },
    ]
}
