// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// Long and deep pipelines: Sluice's own recursion (a concatenation's subscriptions, a subject's
/// re-entrant deliveries, a flatMap's inner subscriptions, a retry's resubscriptions, demand asked
/// from inside `receive`) keeps a bounded stack, on the main thread's 8 MiB and on a 512 KiB thread,
/// in debug and release builds.
func depth() -> [MisuseScenario] {
    let programs: [(name: String, run: () -> Void)] = [
        ("append chained 100,000 times", appendChain),
        ("nested flatMap 10,000 deep", nestedFlatMap),
        ("re-entrant send 10,000 deep", reentrantSend),
        ("re-entrant send 10,000 deep through map", reentrantSendThroughMap),
        ("request from inside receive over 10^6 elements", requestFromReceive),
        ("request from inside receive through map.filter over 10^6 elements", requestFromReceiveThroughStages),
        ("retry(100_000) of a failing publisher", retryMany),
        ("MergeMany of 100,000 upstreams", mergeMany),
    ]
    return programs.flatMap { program in
        [
            MisuseScenario("\(program.name), main thread", .clean, run: program.run),
            MisuseScenario("\(program.name), 512 KiB thread", .clean) {
                onThread(stackSize: 512 * 1024, program.run)
            },
        ]
    }
}

private func appendChain() {
    let count = 100_000
    var publisher = Just(0).eraseToAnyPublisher()
    for value in 1..<count { publisher = publisher.append(value).eraseToAnyPublisher() }
    let recorder = Recorder<Int, Never>()
    publisher.subscribe(recorder)
    expectStream(recorder, "append chain", values: Array(0..<count), finished: true)
    // The pipeline is a value nested 100,000 deep (Combine's `Concatenate<Prefix, Suffix>` holds its
    // prefix, and the loop erases each level). Swift releases a nested value recursively, whichever
    // library built it, so the scenario keeps it, as an app keeps its pipelines: what it checks is
    // what Sluice does with it (subscribe, deliver, end).
    keptPipelines.append(publisher)
}

/// Pipelines the depth scenarios keep to the end of the process (see `appendChain`).
nonisolated(unsafe) private var keptPipelines: [Any] = []

private func nestedFlatMap() {
    func nested(_ depth: Int) -> AnyPublisher<Int, Never> {
        depth == 0 ? Just(0).eraseToAnyPublisher() : Just(depth).flatMap { nested($0 - 1) }.eraseToAnyPublisher()
    }
    let recorder = Recorder<Int, Never>()
    nested(10_000).subscribe(recorder)
    expectStream(recorder, "nested flatMap", values: [0], finished: true)
}

private func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var received = 0
    let cancellable = subject.sink { value in
        received += 1
        if value < 10_000 { subject.send(value + 1) }
    }
    subject.send(1)
    MisuseCheck.expect(received == 10_000, "received \(received) of 10,000")
    cancellable.cancel()
}

private func reentrantSendThroughMap() {
    let subject = PassthroughSubject<Int, Never>()
    var received = 0
    let cancellable = subject.map { $0 + 1 }.sink { value in
        received += 1
        if value <= 10_000 { subject.send(value) }
    }
    subject.send(1)
    MisuseCheck.expect(received == 10_000, "received \(received) of 10,000")
    cancellable.cancel()
}

/// A subscriber that asks for one more value from inside each `receive`, through its subscription.
private final class OneMore: Subscriber {
    var subscription: (any Subscription)?
    var count = 0
    var finished = false
    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        count += 1
        subscription?.request(.max(1))
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
        subscription = nil
    }
}

private func requestFromReceive() {
    let subscriber = OneMore()
    (0..<1_000_000).publisher.subscribe(subscriber)
    MisuseCheck.expect(subscriber.count == 1_000_000 && subscriber.finished, "received \(subscriber.count)")
}

private func requestFromReceiveThroughStages() {
    let subscriber = OneMore()
    (0..<1_000_000).publisher.map { $0 + 1 }.filter { $0 > 0 }.subscribe(subscriber)
    MisuseCheck.expect(subscriber.count == 1_000_000 && subscriber.finished, "received \(subscriber.count)")
}

private func retryMany() {
    var subscriptions = 0
    let recorder = Recorder<Int, MisuseError>()
    Fail<Int, MisuseError>(error: MisuseError())
        .handleEvents(receiveSubscription: { _ in subscriptions += 1 })
        .retry(100_000)
        .subscribe(recorder)
    expectStream(recorder, "retry", values: [], finished: false)
    MisuseCheck.expect(subscriptions == 100_001, "\(subscriptions) subscriptions, expected 100,001")
}

private func mergeMany() {
    let count = 100_000
    let recorder = Recorder<Int, Never>()
    Publishers.MergeMany((0..<count).map { Just($0) }).subscribe(recorder)
    expectStream(recorder, "MergeMany", values: Array(0..<count), finished: true)
}
