// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subscription, or an operator's subscriber that an upstream sees, that introspects as
/// Combine's does: it describes itself by its operator's name ("Map", "Zip",
/// "PassthroughSubject"), shows that name in a playground, and reflects the children Combine's
/// mirror has for it (none unless the type gives its own `customMirror`). A debugger and `print()`
/// show a user this, and OpenCombine's Apple-validated suite checks it.
protocol Introspected: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

/// Combine's mirror children for an operator's subscription, from its subscriber and where the
/// stream is ("awaiting subscription", "subscribed", "terminal").
typealias ReflectChildren = (_ downstream: Any, _ status: String) -> [Mirror.Child]

extension Introspected {
    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
