// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

/// One misuse scenario, compiled against one implementation: a program a user could write that
/// breaks a rule, feeds an edge value, or goes deep, and the answer Sluice owes it.
public struct MisuseScenario {
    public let name: String
    public let expectation: Expectation
    /// Runs in a child process of its own. Returning is a clean result; `MisuseCheck.fail` ends the
    /// child with a message (a wrong value, a lost event); a trap ends it with its own.
    public let run: () -> Void

    public init(_ name: String, _ expectation: Expectation, run: @escaping () -> Void) {
        self.name = name
        self.expectation = expectation
        self.run = run
    }
}

/// The answer a scenario owes.
public enum Expectation: Sendable, CustomStringConvertible {
    /// The process traps, and its standard error names the rule (contains the text).
    case traps(String)
    /// The program runs to its end and every check in it holds.
    case clean
    /// As `clean`, and the child's peak resident memory stays under the bound (MiB).
    case boundedMemory(megabytes: Int)

    public var description: String {
        switch self {
        case .traps(let rule): "trap: \(rule)"
        case .clean: "clean"
        case .boundedMemory(let megabytes): "clean, < \(megabytes) MiB"
        }
    }
}

/// Checks inside a scenario: a failed one ends the child process with its message.
public enum MisuseCheck {
    public static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("misuse check failed: \(message)\n".utf8))
        exit(3)
    }

    public static func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Waits (polling, up to `seconds`) until `condition` holds; fails with `message` if it never does.
    public static func eventually(
        within seconds: Double = 10, _ message: @autoclosure () -> String, _ condition: () -> Bool
    ) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { fail(message()) }
            usleep(1_000)
        }
    }

    /// Runs the current run loop until `condition` holds, for up to `seconds`.
    public static func runLoop(
        within seconds: Double = 10, _ message: @autoclosure () -> String, until condition: () -> Bool
    ) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > deadline { fail(message()) }
            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
        }
    }
}

/// Runs `body` on a new thread whose stack is `bytes` long, and waits for it: the depth scenarios
/// run on the main thread's 8 MiB and on a 512 KiB secondary thread.
public func onThread(stackSize bytes: Int, _ body: @escaping () -> Void) {
    final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, bytes)
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
        &thread, &attributes,
        { raw in
            let box = Unmanaged<AnyObject>.fromOpaque(raw!).takeRetainedValue() as! Box
            box.body()
            return nil
        }, box)
    guard created == 0 else { MisuseCheck.fail("pthread_create failed (\(created))") }
    pthread_join(thread, nil)
}
