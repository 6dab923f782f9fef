// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#if SLUICE_REFERENCE || Introspection
import Testing

/// Combine's `_Introspection` hooks (always in SluiceReference; in Sluice with the package trait
/// `Introspection`). The hooks are global, so each scenario runs in a child process of its own and
/// prints what the hooks heard, one line per event; the parent compares the lines. Facts from
/// Combine as OpenCombine's Apple-validated IntrospectionTests record them.
@Suite struct IntrospectionHookTests {
    @Test func aSubscriptionAndEverySignalAcrossItAreReportedBeforeAndAfter() async {
        let lines = lines(
            of: await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let hook = PrintingHook()
                let subject = PassthroughSubject<Int, TestError>()
                let recorder = RecordingSubscriber<Int, TestError>(initialDemand: nil, demandPerValue: .max(1))
                hook.enable()
                subject.subscribe(recorder)
                recorder.request(.max(2))
                subject.send(1)
                recorder.cancel()
                subject.send(2)
                hook.disable()
            })
        #expect(
            lines == [
                "willReceive publisher: PassthroughSubject subscriber: RecordingSubscriber",
                "willReceive subscriber: RecordingSubscriber subscription: PassthroughSubject",
                "didReceive subscriber: RecordingSubscriber subscription: PassthroughSubject",
                "didReceive publisher: PassthroughSubject subscriber: RecordingSubscriber",
                "willRequest PassthroughSubject max(2)", "didRequest PassthroughSubject max(2)",
                "willReceive subscriber: RecordingSubscriber input: 1",
                "didReceive subscriber: RecordingSubscriber input: 1 demand: max(1)",
                "willCancel PassthroughSubject", "didCancel PassthroughSubject",
            ])
    }

    /// Each operator's boundary is reported, as in Combine's chain (`map` and `filter` pass
    /// upstream's subscription through, so each boundary wraps it once more and a request is
    /// reported at each). A chain Sluice runs as one subscription subscribes operator by operator
    /// while a hook is enabled.
    @Test func eachOperatorBoundaryOfAChainIsReported() async {
        let lines = lines(
            of: await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let hook = PrintingHook(reportsPublishers: false)
                let subject = PassthroughSubject<Int, Never>()
                let recorder = RecordingSubscriber<Int, Never>(initialDemand: .unlimited)
                hook.enable()
                subject.map { $0 * 10 }.filter { $0 > 10 }.subscribe(recorder)
                subject.send(1)
                subject.send(2)
                subject.send(completion: .finished)
                hook.disable()
            })
        let requests = ["willRequest", "willRequest", "willRequest", "didRequest", "didRequest", "didRequest"]
        #expect(
            lines == [
                "willReceive subscriber: Map subscription: PassthroughSubject",
                "willReceive subscriber: Filter subscription: PassthroughSubject",
                "willReceive subscriber: RecordingSubscriber subscription: PassthroughSubject",
            ] + requests.map { $0 + " PassthroughSubject unlimited" } + [
                "didReceive subscriber: RecordingSubscriber subscription: PassthroughSubject",
                "didReceive subscriber: Filter subscription: PassthroughSubject",
                "didReceive subscriber: Map subscription: PassthroughSubject",
                "willReceive subscriber: Map input: 1", "willReceive subscriber: Filter input: 10",
                "didReceive subscriber: Filter input: 10 demand: max(1)",
                "didReceive subscriber: Map input: 1 demand: max(1)",
                "willReceive subscriber: Map input: 2", "willReceive subscriber: Filter input: 20",
                "willReceive subscriber: RecordingSubscriber input: 20",
                "didReceive subscriber: RecordingSubscriber input: 20 demand: max(0)",
                "didReceive subscriber: Filter input: 20 demand: max(0)",
                "didReceive subscriber: Map input: 2 demand: max(0)",
                "willReceive subscriber: Map completion: finished",
                "willReceive subscriber: Filter completion: finished",
                "willReceive subscriber: RecordingSubscriber completion: finished",
                "didReceive subscriber: RecordingSubscriber completion: finished",
                "didReceive subscriber: Filter completion: finished",
                "didReceive subscriber: Map completion: finished",
            ])
    }

    /// An event goes to the hooks enabled when it happens; a subscription made while none was
    /// enabled is not watched, and `isEnabled` says which are.
    @Test func onlyTheHooksEnabledAtAnEventHearOfIt() async {
        let lines = lines(
            of: await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                let first = PrintingHook(name: "first")
                let second = PrintingHook(name: "second")
                let subject = PassthroughSubject<Int, TestError>()
                let unwatched = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
                subject.subscribe(unwatched)
                let watched = RecordingSubscriber<Int, TestError>(initialDemand: .unlimited)
                first.enable()
                first.enable()
                subject.subscribe(watched)
                second.enable()
                print("enabled: \(first.isEnabled) \(second.isEnabled)")
                first.disable()
                subject.send(1)
                second.disable()
                subject.send(2)
                print("enabled: \(first.isEnabled) \(second.isEnabled)")
            })
        #expect(
            lines.filter {
                !$0.contains("Receive publisher") && !$0.contains("subscription:") && !$0.contains("Request")
            }
                == [
                    "enabled: true true",
                    "second: willReceive subscriber: RecordingSubscriber input: 1",
                    "second: didReceive subscriber: RecordingSubscriber input: 1 demand: max(0)",
                    "enabled: false false",
                ])
    }
}

/// The lines a scenario's child process printed.
private func lines(of result: ExitTest.Result?) -> [String] {
    let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
    return output.split(separator: "\n").map(String.init)
}

/// Prints each event, naming subscribers and subscriptions by their descriptions (the test kit's
/// recorder describes itself by its type name).
final class PrintingHook: _Introspection {
    let prefix: String
    let reportsPublishers: Bool

    init(name: String = "", reportsPublishers: Bool = true) {
        prefix = name.isEmpty ? "" : name + ": "
        self.reportsPublishers = reportsPublishers
    }

    private func say(_ line: String) { print(prefix + line) }

    private func name(_ value: Any) -> String {
        let shown = String(describing: value)
        return shown.contains("RecordingSubscriber<") ? "RecordingSubscriber" : shown
    }

    private func name<P: Publisher>(publisher: P) -> String {
        String(describing: P.self).components(separatedBy: "<").first ?? ""
    }

    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        if reportsPublishers {
            say("willReceive publisher: \(name(publisher: publisher)) subscriber: \(name(subscriber))")
        }
    }

    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        if reportsPublishers {
            say("didReceive publisher: \(name(publisher: publisher)) subscriber: \(name(subscriber))")
        }
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        say("willReceive subscriber: \(name(subscriber)) subscription: \(subscription)")
    }

    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        say("didReceive subscriber: \(name(subscriber)) subscription: \(subscription)")
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
        say("willReceive subscriber: \(name(subscriber)) input: \(input)")
    }

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {
        say("didReceive subscriber: \(name(subscriber)) input: \(input) demand: \(describe(resultingDemand))")
    }

    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        say("willReceive subscriber: \(name(subscriber)) completion: \(completion)")
    }

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        say("didReceive subscriber: \(name(subscriber)) completion: \(completion)")
    }

    func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
        say("willRequest \(subscription) \(describe(demand))")
    }

    func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
        say("didRequest \(subscription) \(describe(demand))")
    }

    func willCancel(subscription: any Subscription) { say("willCancel \(subscription)") }

    func didCancel(subscription: any Subscription) { say("didCancel \(subscription)") }

    private func describe(_ demand: Subscribers.Demand) -> String {
        demand.max.map { "max(\($0))" } ?? "unlimited"
    }
}
#endif
