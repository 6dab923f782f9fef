// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// What a one-to-one operator's own subscription does with a signal that comes out of order: from
/// upstream before upstream's subscription, or a subscription that comes after a cancel. Combine's
/// operators differ here by family, and OpenCombine's Apple-validated suite records each
/// (`testReceiveValueBeforeSubscription`, `testReceiveCompletionBeforeSubscription`,
/// `testCancelBeforeSubscription` in every operator's tests). `HeldPublisher` reaches the
/// operator's object before it has a subscription, as that suite does.
@Suite struct OutOfOrderSignalTests {
    // MARK: The filtering family traps

    @Test func tryFilterTrapsOnAValueBeforeItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let held = HeldPublisher<Int, TestError>()
            _ = held.tryFilter { _ in true }.record()
            _ = held.subscriber?.receive(1)
        }
        expectTrapMessage(result, contains: "TryFilter received a value before its subscription")
    }

    @Test func removeDuplicatesTrapsOnACompletionBeforeItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let held = HeldPublisher<Int, TestError>()
            _ = held.removeDuplicates().record()
            held.subscriber?.receive(completion: .finished)
        }
        expectTrapMessage(result, contains: "RemoveDuplicates received a completion before its subscription")
    }

    @Test func prefixWhileTrapsOnARequestBeforeItsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let held = HeldPublisher<Int, TestError>()
            _ = held.prefix(while: { _ in true }).record()
            held.subscriberAsSubscription?.request(.max(1))
        }
        expectTrapMessage(result, contains: "PrefixWhile requested demand before its subscription")
    }

    @Test func theFilteringFamilyCancelsASubscriptionThatComesAfterACancel() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.tryCompactMap { Optional($0) }.record()
        try #require(held.subscriberAsSubscription).cancel()
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(held.subscriber))
        #expect(late.events == [.subscribe, .cancel])
        #expect(recorder.events == [])
    }

    // MARK: The others leave a late subscription alone

    @Test func tryMapLeavesASubscriptionThatComesAfterACancelAlone() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.tryMap { $0 }.record()
        try #require(held.subscriberAsSubscription).cancel()
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(held.subscriber))
        #expect(late.events == [.subscribe])
        #expect(recorder.events == [])
    }

    // MARK: What comes before the subscription

    /// `drop(while:)` and `output(at:)` drop it.
    @Test func dropWhileIgnoresValuesAndCompletionsBeforeItsSubscription() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.drop(while: { _ in false }).record()
        let subscriber = try #require(held.subscriber)
        #expect(subscriber.receive(1) == .none)
        subscriber.receive(completion: .finished)
        #expect(recorder.events == [])
    }

    /// `tryMap` and `tryScan` still run a value through and pass it on.
    @Test func tryMapPassesAValueBeforeItsSubscriptionOn() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.tryMap { $0 * 10 }.record()
        let subscriber = try #require(held.subscriber)
        _ = subscriber.receive(1)
        subscriber.receive(completion: .finished)
        #expect(recorder.values == [10])
        #expect(recorder.completions.isEmpty)
    }

    /// A `tryScan` whose closure throws before the subscription ends the stream then.
    @Test func tryScanFailsBeforeItsSubscriptionWhenItsClosureThrows() throws {
        let held = HeldPublisher<Int, TestError>()
        let recorder = held.tryScan(0) { _, _ in throw TestError.oops }.record()
        _ = try #require(held.subscriber).receive(1)
        guard case .failure(let error)? = recorder.completions.first else {
            Issue.record("tryScan did not fail: \(recorder.events)")
            return
        }
        #expect(error as? TestError == .oops)
        let late = TestPublisher<Int, TestError>()
        late.subscribe(try #require(held.subscriber))
        #expect(late.events == [.subscribe, .cancel])
    }
}
