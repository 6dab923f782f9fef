// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// # Introspection
//
// What a debugger, `print()` and a playground show of a subscription: in Combine every subscription
// it hands a subscriber (and every operator's subscriber that an upstream sees) describes itself as
// its operator ("Map", "Zip", "PassthroughSubject"), reflects a few named children of its state, and
// shows its description in a playground. None of it costs anything until somebody asks.

/// A subscription or subscriber that introspects as Combine's does: conforming types give
/// `description` and, when Combine's has state to show, `customMirror`.
@usableFromInline
protocol Introspected: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {}

extension Introspected {
    @usableFromInline var playgroundDescription: Any { description }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension _Runtime {
    /// What a fused chain or a run of stages shows of the subscription a subscriber of it gets:
    /// Combine's description and mirror children for the operator on top.
    public struct Reflection {
        @usableFromInline let description: String
        @usableFromInline let children: [Mirror.Child]

        @inlinable
        init(_ description: String, _ children: [Mirror.Child] = []) {
            self.description = description
            self.children = children
        }

        /// A mirror of `subject` with these children.
        @usableFromInline
        func mirror(of subject: Any) -> Mirror { Mirror(subject, children: children) }
    }
}

/// A subscriber that an operator hands one of its upstreams on behalf of its subscription: in
/// Combine that subscriber is the subscription itself, so it introspects as `owner`.
@usableFromInline
protocol SideSubscriber: Introspected {
    associatedtype Owner: Introspected
    var owner: Owner { get }
}

extension SideSubscriber {
    @usableFromInline var description: String { owner.description }

    @usableFromInline var customMirror: Mirror { owner.customMirror }
}
