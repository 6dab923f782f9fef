// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

/// `values` and `Future.value`: the async bridges, as Apple's behave (OpenCombine's
/// PublisherConcurrencyTests and FutureConcurrencyTests, which scripts/compat runs, have the edges).
@Suite struct AsyncPublisherTests {
    final class Flag: Sendable {
        let raised = TestLock(false)
        func raise() { raised.withLock { $0 = true } }
        var isRaised: Bool { raised.withLock { $0 } }
    }

    @Test func valuesRequestsOneElementPerNext() async {
        var requests: [Subscribers.Demand] = []
        let publisher = [1, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) })
        var received: [Int] = []
        for await value in publisher.values { received.append(value) }
        #expect(received == [1, 2, 3])
        #expect(requests.count >= 3)
        #expect(requests.allSatisfy { $0 == .max(1) })
    }

    /// The failure is thrown by the `next()` that meets it; every `next()` after returns `nil`.
    @Test func theFailureIsThrownOnceThenNil() async throws {
        var iterator = Record<Int, TestError>(output: [1], completion: .failure(.oops)).values.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        await #expect(throws: TestError.oops) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// Nothing is buffered: a subject's value sent while no `next()` waits is dropped, as Apple's is.
    @Test func aSubjectsValueSentWhileNoNextWaitsIsDropped() async {
        let subject = PassthroughSubject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        subject.send(1)
        subject.send(completion: .finished)
        #expect(await iterator.next() == nil)
    }

    @Test func cancellingTheTaskCancelsTheSubscription() async {
        let cancelled = Flag()
        let task = Task {
            let publisher = Empty<Int, Never>(completeImmediately: false).handleEvents(receiveCancel: {
                cancelled.raise()
            })
            var iterator = publisher.values.makeAsyncIterator()
            return await iterator.next()
        }
        task.cancel()
        #expect(await task.value == nil)
        #expect(cancelled.isRaised)
    }

    @Test func lettingGoOfTheIteratorCancelsTheSubscription() {
        let cancelled = Flag()
        let publisher = Empty<Int, Never>(completeImmediately: false).handleEvents(receiveCancel: { cancelled.raise() })
        do {
            let iterator = publisher.values.makeAsyncIterator()
            _ = iterator
        }
        #expect(cancelled.isRaised)
    }

    @Test func aValueNoNextAskedForTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            upstream.send(1)
            _ = iterator
        }
        expectTrapMessage(result, contains: "values received while no next() was waiting for one")
    }

    @Test func futureValue() async throws {
        #expect(await Future<Int, Never> { $0(.success(3)) }.value == 3)
        let failing = Future<Int, TestError> { $0(.failure(.oops)) }
        await #expect(throws: TestError.oops) { _ = try await failing.value }
        #expect(try await Future<Int, TestError> { $0(.success(4)) }.value == 4)
    }
}
