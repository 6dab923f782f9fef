// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Checks that a child process that was expected to trap printed a message naming the rule.
///
/// Use after `#expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { ... }`.
func expectTrapMessage(
    _ result: ExitTest.Result?, contains rule: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let result else {
        Issue.record("the child process did not trap", sourceLocation: sourceLocation)
        return
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
        message.contains(rule), "trap message should name the rule '\(rule)'; got: \(message)",
        sourceLocation: sourceLocation)
}
