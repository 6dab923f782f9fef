// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct PrintTests {
    @Test func linesWithAPrefixInLifecycleOrder() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = upstream.print("👉", to: log).record(
            initialDemand: .max(2), demandPerValue: { $0 == 2 ? .max(1) : .none })
        #expect(upstream.send(1) == .none)
        recorder.request(.max(3))
        #expect(upstream.send(2) == .max(1))
        upstream.send(completion: .finished)
        #expect(
            log.lines == [
                "👉: receive subscription: (TestSubscription)",
                "👉: request max: (2)",
                "👉: receive value: (1)",
                "👉: request max: (3)",
                "👉: receive value: (2)",
                "👉: request max: (1) (synchronous)",
                "👉: receive finished",
            ])
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(3))])
        #expect(recorder.subscriptionDescriptions == ["Print"])
    }

    @Test func withoutAPrefixThereIsNoLeadingColon() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        _ = upstream.print(to: log).record(initialDemand: .unlimited, demandPerValue: .unlimited)
        upstream.send(5)
        upstream.send(completion: .failure(.oops))
        #expect(
            log.lines == [
                "receive subscription: (TestSubscription)",
                "request unlimited",
                "receive value: (5)",
                "request unlimited (synchronous)",
                "receive error: (oops)",
            ])
    }

    @Test func cancelIsLoggedBeforeItGoesUpstreamAndEveryEventAfterIt() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = upstream.print("p", to: log).record(initialDemand: nil)
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.cancel()
        subscription?.request(.max(1))
        upstream.sendKeepingSubscriber(1)
        // Combine's print logs every event it sees, after the end too; nothing goes on after it.
        #expect(
            log.lines == [
                "p: receive subscription: (TestSubscription)", "p: receive cancel", "p: receive cancel",
                "p: request max: (1)", "p: receive value: (1)",
            ])
        #expect(upstream.events == [.subscribe, .cancel])
        #expect(recorder.events == [.subscription])
    }

    @Test func eventsAfterTheCompletionAreLoggedAndNotPassedOn() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = upstream.print(to: log).record(initialDemand: .max(1))
        let subscription = recorder.subscription
        upstream.sendKeepingSubscriber(completion: .finished)
        subscription?.request(.max(1))
        subscription?.cancel()
        upstream.sendKeepingSubscriber(2)
        upstream.sendKeepingSubscriber(completion: .failure(.oops))
        #expect(
            log.lines == [
                "receive subscription: (TestSubscription)", "request max: (1)", "receive finished",
                "request max: (1)", "receive cancel", "receive value: (2)", "receive error: (oops)",
            ])
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func aCancelBeforeTheSubscriptionAndASubscriptionAfterItAreLogged() throws {
        let held = HeldPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = held.print(to: log).record()
        try #require(held.subscriberAsSubscription).cancel()
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(held.subscriber))
        #expect(log.lines == ["receive cancel", "receive subscription: (TestSubscription)"])
        // As after a cancel before the subscription in Combine, the late one is left alone.
        #expect(late.events == [.subscribe])
        #expect(recorder.events == [])
    }

    @Test func aSubscriptionAfterTheEndIsLoggedAndCancelled() throws {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = upstream.print(to: log).record(initialDemand: nil)
        recorder.cancel()
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(upstream.lastSubscriber))
        #expect(
            log.lines == [
                "receive subscription: (TestSubscription)", "receive cancel",
                "receive subscription: (TestSubscription)",
            ])
        #expect(late.events == [.subscribe, .cancel])
    }

    @Test func logLinesComeBeforeTheEventIsPassedOn() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        // What the log holds when downstream sees each value.
        var linesAtValue: [Int] = []
        recorder.onValue = { _ in linesAtValue.append(log.lines.count) }
        upstream.print(to: log).subscribe(recorder)
        upstream.send(1)
        #expect(linesAtValue == [3])
        #expect(log.lines.last == "receive value: (1)")
    }

    @Test func zeroDemandLogsNoRequest() {
        let upstream = TestPublisher<Int, TestError>()
        let log = PrintRecorder()
        let recorder = upstream.print(to: log).record(initialDemand: nil, demandPerValue: .none)
        upstream.send(completion: .finished)
        #expect(log.lines == ["receive subscription: (TestSubscription)", "receive finished"])
        #expect(recorder.events == [.subscription, .finished])
    }

    /// T7: a prefix that already ends in ": " gives a double colon, as in the seed's logs.
    @Test func prefixEndingInColonDoublesIt() {
        let log = PrintRecorder()
        _ = Just("heckj").print("username pipeline: ", to: log).record()
        #expect(
            log.lines == [
                "username pipeline: : receive subscription: (Just)",
                "username pipeline: : request unlimited",
                "username pipeline: : receive value: (heckj)",
                "username pipeline: : receive finished",
            ])
    }

    /// T8: values print with `String(describing:)`: an empty array is `([])`.
    @Test func valuesPrintAsDescribed() {
        let log = PrintRecorder()
        _ = Just([Int]()).print("github user data: ", to: log).record()
        #expect(log.lines.contains("github user data: : receive value: ([])"))
    }

    @Test func printsToStandardOutputWithoutAStream() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            _ = [7].publisher.print("out").record()
        }
        let output = result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) } ?? ""
        #expect(
            output.contains(
                """
                out: receive subscription: ([7])
                out: request unlimited
                out: receive value: (7)
                out: receive finished

                """))
    }

    @Test func laws() {
        OperatorLaws.check { $0.print(to: PrintRecorder()) }
    }
}

/// Collects what `print` writes, as lines.
private final class PrintRecorder: TextOutputStream {
    private var text = ""

    func write(_ string: String) { text += string }

    var lines: [String] { text.split(separator: "\n").map(String.init) }
}
