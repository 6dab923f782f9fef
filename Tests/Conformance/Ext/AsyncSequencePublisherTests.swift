// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AsyncSequencePublisherTests {
    /// Counts up to `limit`, then throws `failure` if one is given, or ends; it counts the pulls.
    struct Counting: AsyncSequence, Sendable {
        typealias Element = Int
        typealias Failure = TestError

        final class Pulls: @unchecked Sendable {
            private let count = TestLock(0)
            func add() { count.withLock { $0 += 1 } }
            var total: Int { count.withLock { $0 } }
        }

        let limit: Int
        var failure: TestError? = nil
        let pulls = Pulls()

        struct AsyncIterator: AsyncIteratorProtocol {
            let sequence: Counting
            var next = 0

            mutating func next() async throws(TestError) -> Int? {
                sequence.pulls.add()
                guard next < sequence.limit else {
                    if let failure = sequence.failure { throw failure }
                    return nil
                }
                defer { next += 1 }
                return next
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
    }

    @Test func elementsArePulledOnlyAsDemandAllows() async {
        let sequence = Counting(limit: 10)
        let recorder = LockedRecorder<Int, TestError>(initialDemand: .max(2))
        sequence.publisher.subscribe(recorder)
        #expect(await eventually { recorder.values == [0, 1] })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(sequence.pulls.total == 2, "nothing is pulled without demand")
        recorder.request(.max(3))
        #expect(await eventually { recorder.values == [0, 1, 2, 3, 4] })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(sequence.pulls.total == 5)
        #expect(recorder.completions.isEmpty)
    }

    @Test func theSequenceEndingFinishesAndItsErrorFails() async {
        let finishing = LockedRecorder<Int, TestError>()
        Counting(limit: 3).publisher.subscribe(finishing)
        #expect(await eventually { finishing.completions.count == 1 })
        #expect(finishing.values == [0, 1, 2])
        #expect(finishing.completions.first == .finished)

        let failing = LockedRecorder<Int, TestError>()
        Counting(limit: 2, failure: .oops).publisher.subscribe(failing)
        #expect(await eventually { failing.completions.count == 1 })
        #expect(failing.values == [0, 1])
        #expect(failing.completions.first == .failure(.oops))
    }

    @Test func nothingStartsBeforeTheFirstRequest() async {
        let sequence = Counting(limit: 3)
        let recorder = LockedRecorder<Int, TestError>(initialDemand: nil)
        sequence.publisher.subscribe(recorder)
        try? await Task.sleep(for: .milliseconds(50))
        #expect(sequence.pulls.total == 0)
        recorder.request(.unlimited)
        #expect(await eventually { recorder.completions.count == 1 })
        #expect(recorder.values == [0, 1, 2])
    }

    @Test func aCancelCancelsTheIteratingTask() async {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = TestLock(false)
        continuation.onTermination = { _ in terminated.withLock { $0 = true } }
        let recorder = LockedRecorder<Int, Never>()
        stream.publisher.subscribe(recorder)
        continuation.yield(1)
        #expect(await eventually { recorder.values == [1] })
        recorder.cancel()
        #expect(await eventually { terminated.withLock { $0 } }, "the stream's task was cancelled")
        continuation.yield(2)
        try? await Task.sleep(for: .milliseconds(20))
        #expect(recorder.values == [1])
        #expect(recorder.completions.isEmpty, "nothing after a cancel")
    }

    @Test func bufferedValuesKeepWhatASubjectSendsWhileTheConsumerIsBusy() async {
        let subject = PassthroughSubject<Int, Never>()
        let all = subject.values(bufferingPolicy: .unbounded)
        let newest = subject.values(bufferingPolicy: .bufferingNewest(2))
        for value in 1...5 { subject.send(value) }
        subject.send(completion: .finished)
        var received: [Int] = []
        for await value in all { received.append(value) }
        #expect(received == [1, 2, 3, 4, 5])
        received = []
        for await value in newest { received.append(value) }
        #expect(received == [4, 5])
    }

    @Test func bufferedValuesOfAFailingPublisherThrowItsError() async {
        let subject = PassthroughSubject<Int, TestError>()
        let values = subject.values(bufferingPolicy: .unbounded)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        var received: [Int] = []
        do {
            for try await value in values { received.append(value) }
            Issue.record("the failure was not thrown")
        } catch {
            #expect(error as? TestError == .oops)
        }
        #expect(received == [1])
    }

    @Test func endingTheIterationCancelsTheSubscription() async {
        let upstream = TestPublisher<Int, Never>()
        do {
            let values = upstream.values(bufferingPolicy: .unbounded)
            upstream.send(1)
            for await _ in values { break }
        }
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }
}
