// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct RecordTests {
    @Test func playsBackPerDemandThenCompletesRightAfterTheLastValue() {
        let record = Record<Int, TestError>(output: [1, 2, 3, 4], completion: .failure(.oops))
        let recorder = record.record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .failure(.oops)])
    }

    /// As Combine's (OpenCombine's RecordTests.testRecordNoInitialDemand): once played back, the
    /// subscription shows no values and the completion it delivered.
    @Test func anEndedPlaybackShowsNoValuesAndItsCompletion() throws {
        let recorder = Record<Int, TestError>(output: [1, 2], completion: .failure(.oops)).record(initialDemand: nil)
        let subscription = try #require(recorder.subscription)
        subscription.request(.unlimited)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(.oops)])
        let children = Mirror(reflecting: subscription).children
        #expect(
            children.map { "\($0.label ?? ""): \($0.value)" } == [
                "sequence: []", "completion: failure(\(TestError.oops))",
            ])
    }

    @Test func unlimitedDemandPlaysEverything() {
        let record = Record<String, Never> {
            $0.receive("one")
            $0.receive("two")
            $0.receive("three")
            $0.receive(completion: .finished)
        }
        #expect(record.record().events == [.subscription, .value("one"), .value("two"), .value("three"), .finished])
    }

    @Test func eachSubscriberGetsTheWholeRecording() {
        let record = Record<Int, TestError>(output: [1, 2], completion: .finished)
        let first = record.record(initialDemand: .max(1))
        let second = record.record()
        #expect(first.values == [1])
        #expect(second.events == [.subscription, .value(1), .value(2), .finished])
        first.request(.max(5))
        #expect(first.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let record = Record<Int, TestError>(output: Array(1...9), completion: .finished)
        let recorder = record.record(initialDemand: .max(1), demandPerValue: { $0 > 4 || $0 == 1 ? .none : .max(2) })
        #expect(recorder.values == [1])
        recorder.request(.max(1))
        #expect(recorder.values == Array(1...8))
        #expect(recorder.completions.isEmpty)
    }

    @Test func emptyRecordingCompletesAtOnce() {
        let finished = Record<Int, TestError> { _ in }.record(initialDemand: nil)
        #expect(finished.events == [.subscription, .finished])
        #expect(finished.subscriptionDescriptions == ["Empty"])
        let failed = Record<Int, TestError> { $0.receive(completion: .failure(.other)) }.record(initialDemand: nil)
        #expect(failed.events == [.subscription, .failure(.other)])
    }

    @Test func cancelFromInsideReceiveStopsPlayback() {
        let recorder = Record<Int, TestError>(output: [1, 2, 3], completion: .finished).record(cancelAfterValues: 2)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func cancelAtTheLastValueSuppressesTheCompletion() {
        let recorder = Record<Int, TestError>(output: [1, 2], completion: .finished).record(cancelAfterValues: 2)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
    }

    @Test func reentrantRequestsDoNotRecurse() {
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        var depth = 0
        var maxDepth = 0
        recorder.onValue = { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            recorder.request(.max(1))
            depth -= 1
        }
        Record<Int, TestError>(output: Array(1...100), completion: .finished).subscribe(recorder)
        #expect(recorder.values == Array(1...100))
        #expect(recorder.completions == [.finished])
        #expect(maxDepth == 1)
    }

    @Test func subscriptionIsReleasedAfterCompletion() {
        let recorder = Record<Int, TestError>(output: [1], completion: .finished).record()
        #expect(recorder.firstSubscription == nil)
    }

    @Test func recordingCollectsValuesAndCompletion() {
        var recording = Record<Int, TestError>.Recording()
        #expect(recording.output == [])
        #expect(recording.completion == .finished)
        recording.receive(1)
        recording.receive(2)
        recording.receive(completion: .failure(.oops))
        #expect(recording.output == [1, 2])
        #expect(recording.completion == .failure(.oops))
        let record = Record(recording: recording)
        #expect(record.recording.output == [1, 2])
        let complete = Record<Int, TestError>.Recording(output: [3])
        #expect(complete.completion == .finished)
    }

    @Test func recordBuiltWithoutCompletionStaysOpenInCopies() {
        let record = Record<Int, TestError> { $0.receive(1) }
        var copy = record.recording
        copy.receive(2)
        copy.receive(completion: .failure(.oops))
        #expect(copy.output == [1, 2])
        #expect(record.recording.output == [1])
        #expect(record.recording.completion == .finished)
    }

    @Test func valueAfterCompletionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, TestError>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
        expectTrapMessage(result, contains: "Record.Recording received a value after its completion")
    }

    @Test func secondCompletionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var recording = Record<Int, TestError>.Recording(output: [1], completion: .finished)
            recording.receive(completion: .failure(.oops))
        }
        expectTrapMessage(result, contains: "Record.Recording received a completion after its completion")
    }
}
