// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The app pipelines' runs against SluiceReference and OpenCombine 0.14.0, for the app table's
// instruction counts (`scripts/bench-check --apps`). A file of its own: both modules declare the
// same names, so each is named with its module here, and main.swift sees neither.
import ScenariosOpenCombine
import ScenariosReference

/// Each app scenario's runs on the peers, by scenario name and then by implementation.
@MainActor let peers: [String: KeyValuePairs<String, (Int) -> Int>] = [
    "app.form": ["SluiceReference": ScenariosReference.formEdits, "OpenCombine": ScenariosOpenCombine.formEdits],
    "app.search.just": [
        "SluiceReference": ScenariosReference.searchSynchronous, "OpenCombine": ScenariosOpenCombine.searchSynchronous,
    ],
    "app.search.future": [
        "SluiceReference": ScenariosReference.searchFuture, "OpenCombine": ScenariosOpenCombine.searchFuture,
    ],
    "app.bus": ["SluiceReference": ScenariosReference.eventBus, "OpenCombine": ScenariosOpenCombine.eventBus],
    "app.sharedRequest": [
        "SluiceReference": ScenariosReference.sharedRequests, "OpenCombine": ScenariosOpenCombine.sharedRequests,
    ],
    "app.batchedRequests": [
        "SluiceReference": ScenariosReference.batchedRequests, "OpenCombine": ScenariosOpenCombine.batchedRequests,
    ],
    "app.screen": [
        "SluiceReference": ScenariosReference.screenLifecycles, "OpenCombine": ScenariosOpenCombine.screenLifecycles,
    ],
]
