// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Each API violation a user can commit, and Combine's answer: a trap whose message names the rule
/// and the operator, in release builds too.
func apiViolations() -> [MisuseScenario] {
    /// -1, computed at run time so that the compiler does not see the trap coming.
    let minusOne = CommandLine.arguments.isEmpty ? 0 : -1
    return [
        MisuseScenario(
            "request(.none) on a PassthroughSubject",
            .traps("API violation: request(.none) on PassthroughSubject's subscription")
        ) { requestNone(PassthroughSubject<Int, Never>()) },
        MisuseScenario(
            "request(.none) on a CurrentValueSubject",
            .traps("API violation: request(.none) on CurrentValueSubject's subscription")
        ) { requestNone(CurrentValueSubject<Int, Never>(0)) },
        MisuseScenario("request(.none) on Just", .traps("API violation: request(.none) on Just's subscription")) {
            requestNone(Just(1))
        },
        MisuseScenario(
            "request(.none) through removeDuplicates",
            .traps("API violation: request(.none) on RemoveDuplicates's subscription")
        ) { requestNone(PassthroughSubject<Int, Never>().removeDuplicates()) },
        // map and filter hand upstream's subscription through, as Combine's do: the rule is Just's.
        MisuseScenario(
            "request(.none) through map.filter on Just",
            .traps("API violation: request(.none) on Just's subscription")
        ) { requestNone(Just(1).eraseToAnyPublisher().map { $0 + 1 }.filter { _ in true }) },
        MisuseScenario(
            "request(.none) through flatMap", .traps("API violation: request(.none) on FlatMap's subscription")
        ) {
            requestNone(PassthroughSubject<Int, Never>().flatMap { Just($0) })
        },
        MisuseScenario("request(.none) through merge", .traps("API violation: request(.none) on Merge's subscription"))
        {
            requestNone(PassthroughSubject<Int, Never>().merge(with: PassthroughSubject<Int, Never>()))
        },
        MisuseScenario("request(.none) on Future", .traps("API violation: request(.none) on Future's subscription")) {
            requestNone(Future<Int, Never> { _ in })
        },
        MisuseScenario(
            "Subscribers.Demand.max(-1)",
            .traps("API violation: Subscribers.Demand.max(_:) requires a non-negative count (got -1)")
        ) { _ = Subscribers.Demand.max(minusOne) == .none },
        MisuseScenario(
            "Subscribers.Demand times a negative number",
            .traps("API violation: Subscribers.Demand multiplied by a negative number")
        ) { _ = Subscribers.Demand.max(1) * minusOne == .none },
        MisuseScenario(
            "a value into removeDuplicates before its subscription",
            .traps("API violation: RemoveDuplicates received a value before its subscription")
        ) { Misbehaving(.valueBeforeSubscription).removeDuplicates().subscribe(Recorder<Int, MisuseError>()) },
        MisuseScenario(
            "a value into tryFilter before its subscription",
            .traps("API violation: TryFilter received a value before its subscription")
        ) { Misbehaving(.valueBeforeSubscription).tryFilter { _ in true }.subscribe(Recorder<Int, any Error>()) },
        MisuseScenario(
            "a value into Record.Recording after its completion",
            .traps("Record.Recording received a value after its completion")
        ) {
            _ = Record<Int, Never> { recording in
                recording.receive(1)
                recording.receive(completion: .finished)
                recording.receive(2)
            }
        },
        MisuseScenario(
            "a second completion into Record.Recording",
            .traps("Record.Recording received a completion after its completion")
        ) {
            _ = Record<Int, Never> { recording in
                recording.receive(completion: .finished)
                recording.receive(completion: .finished)
            }
        },
        MisuseScenario("prefix(-1)", .traps("prefix(_:) requires a non-negative maximum length")) {
            PassthroughSubject<Int, Never>().prefix(minusOne).subscribe(Recorder<Int, Never>())
        },
        MisuseScenario("dropFirst(-1)", .traps("dropFirst(_:) requires a non-negative count")) {
            PassthroughSubject<Int, Never>().dropFirst(minusOne).subscribe(Recorder<Int, Never>())
        },
        MisuseScenario("output(at: -1)", .traps("output(at:) requires a non-negative index")) {
            PassthroughSubject<Int, Never>().output(at: minusOne).subscribe(Recorder<Int, Never>())
        },
    ]
}
