// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

/// How one scenario's child process ended.
public struct ChildOutcome: Sendable {
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
    }

    public let ending: Ending
    /// What the child wrote to standard error (and standard output), in order.
    public let output: String
    /// Peak resident memory, MiB.
    public let peakMegabytes: Int
    public let seconds: Double

    /// Whether this is the answer `expectation` asks for; if not, why not.
    public func verdict(for expectation: Expectation) -> (passed: Bool, summary: String) {
        let time = String(format: "%.2f s", seconds)
        switch (expectation, ending) {
        case (.traps(let rule), .signalled(let signal)):
            guard output.contains(rule) else {
                return (false, "trapped (signal \(signal)) without naming the rule; stderr: \(tail)")
            }
            return (true, "trap, \(time)")
        case (.clean, .exited(0)):
            return (true, "clean, \(time)")
        case (.boundedMemory(let megabytes), .exited(0)):
            guard peakMegabytes < megabytes else {
                return (false, "peak memory \(peakMegabytes) MiB, over \(megabytes) MiB")
            }
            return (true, "clean, \(peakMegabytes) MiB, \(time)")
        case (_, .timedOut):
            return (false, "timed out after \(time); output: \(tail)")
        case (_, .signalled(let signal)):
            return (false, "died by signal \(signal): \(tail)")
        case (_, .exited(let code)):
            return (false, "exited \(code): \(tail)")
        }
    }

    /// The message that ended the child (a trap's, a failed check's), or its last line, for a report.
    var tail: String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true)
        let message = lines.first { $0.contains("Fatal error") || $0.contains("misuse check failed") } ?? lines.last
        return message.map(String.init) ?? "(nothing)"
    }
}

/// Runs this executable again as `arguments`, in a child process with its output in a file,
/// killed after `timeout` seconds. Swift's backtracer is off in the child: a trap prints its
/// message and ends, quickly.
public func runChild(_ arguments: [String], timeout: Double) -> ChildOutcome {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let outputPath = NSTemporaryDirectory() + "sluice-misuse-\(getpid())-\(UUID().uuidString).log"
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }

    let start = Date()
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else {
        return ChildOutcome(ending: .exited(-1), output: "posix_spawn: \(spawned)", peakMegabytes: 0, seconds: 0)
    }
    var status: Int32 = 0
    var usage = rusage()
    var ending: ChildOutcome.Ending?
    while ending == nil {
        let waited = wait4(pid, &status, WNOHANG, &usage)
        if waited == pid {
            let signal = status & 0x7f
            ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        } else if Date().timeIntervalSince(start) > timeout {
            kill(pid, SIGKILL)
            _ = wait4(pid, &status, 0, &usage)
            ending = .timedOut
        } else {
            usleep(2_000)
        }
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return ChildOutcome(
        ending: ending!, output: output, peakMegabytes: usage.ru_maxrss / 1024,
        seconds: Date().timeIntervalSince(start))
}
