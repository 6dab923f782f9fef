// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// Ends the process because a rule was broken: an API violation (a `request(.none)`, a value into a
/// subscriber before its subscription, a negative count) or one of the runtime's own invariants.
///
/// `precondition` and `preconditionFailure` drop their message under `-O`, so a release build would
/// die with `Illegal instruction` and nothing on stderr; `fatalError` keeps it. Every trap goes
/// through here, so that the message that names the rule and the operator reaches the user in every
/// build configuration. The message is built only when the process is about to end.
@usableFromInline @inline(never)
package func trap(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError(message(), file: file, line: line)
}

/// `precondition` whose message survives `-O` (see `trap`): the check is inlined, the message is
/// built on the failing path only.
@inlinable @inline(__always)
package func require(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if _slowPath(!condition) { trap(message(), file: file, line: line) }
}
