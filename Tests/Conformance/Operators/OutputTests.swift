// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct OutputTests {
    @Test func outputAtPicksOneZeroBasedElement() {
        #expect((10...20).publisher.output(at: 3).record().events == [.subscription, .value(13), .finished])
    }

    @Test func outputInPicksARange() {
        #expect((0...9).publisher.output(in: 2...4).record().values == [2, 3, 4])
        #expect((0...9).publisher.output(in: 7...).record().values == [7, 8, 9])
        #expect((0...9).publisher.output(in: ..<2).record().values == [0, 1])
    }

    @Test func rangesBecomeCountableRanges() {
        let upstream = Just(1)
        #expect(upstream.output(at: 89).range == 89..<90)
        #expect(upstream.output(in: ..<8).range == 0..<8)
        #expect(upstream.output(in: ...8).range == 0..<9)
        #expect(upstream.output(in: 8...).range == 8 ..< .max)
        #expect(upstream.output(in: 4...5).range == 4..<6)
        #expect(upstream.output(in: Int.max...).range == .max ..< .max)
    }

    /// Before the range each element is replaced by a request for one more; inside it, downstream
    /// answers; after the last index, upstream is cancelled and the stream finishes.
    @Test func demandTraffic() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(in: 2..<4).record(initialDemand: nil, demandPerValue: .max(7))
        #expect(upstream.events == [.subscribe])
        recorder.request(.max(3))
        recorder.request(.max(4))
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(4))])
        #expect(upstream.send(10) == .max(1))
        #expect(upstream.send(11) == .max(1))
        #expect(recorder.events == [.subscription])
        #expect(upstream.send(12) == .max(7))
        // The last value of the range: upstream is cancelled, and still answered with
        // downstream's demand, as in Combine (OpenCombine's OutputTests.testBasicBehavior).
        #expect(upstream.send(13) == .max(7))
        #expect(recorder.events == [.subscription, .value(12), .value(13), .finished])
        #expect(upstream.events == [.subscribe, .request(.max(3)), .request(.max(4)), .cancel])
        recorder.request(.max(1))
        #expect(upstream.events.count == 4)
    }

    @Test func upstreamFinishingBeforeTheIndexFinishesEmpty() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(at: 5).record()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(in: 0..<5).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    @Test func limitedDemandIsHonoured() {
        let recorder = (0...9).publisher.output(in: 1...).record(initialDemand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completions.isEmpty)
    }

    @Test func cancelMidStream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(in: 0..<5).record(initialDemand: .max(5), cancelAfterValues: 2)
        for value in 1...4 { upstream.send(value) }
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.max(5)), .cancel])
    }

    @Test func requestFromInsideReceiveGoesStraightUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(in: 0..<5).record(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(2)) }
        upstream.send(1)
        #expect(upstream.events == [.subscribe, .request(.max(1)), .request(.max(2))])
    }

    @Test func emptyRangeFinishesAtTheFirstElement() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.output(in: 0..<0).record()
        upstream.send(1)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func publicShape() {
        let output = Publishers.Output(upstream: Just(1), range: 0..<1)
        #expect(output.upstream == Just(1))
        #expect(output == Just(1).output(at: 0))
        #expect(output != Just(1).output(at: 1))
        #expect(output.record().subscriptionDescriptions == ["Output"])
    }

    @Test func negativeIndexTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().output(at: -1)
        }
        expectTrapMessage(result, contains: "non-negative index")
    }

    @Test func indexIntMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().output(at: .max)
        }
        expectTrapMessage(result, contains: "below Int.max")
    }

    @Test func negativeLowerBoundTraps() async {
        let viaOperator = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).eraseToAnyPublisher().output(in: (-1)...)
        }
        expectTrapMessage(viaOperator, contains: "non-negative lower bound")
        let viaInit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Publishers.Output(upstream: Just(1), range: -1..<4)
        }
        expectTrapMessage(viaInit, contains: "non-negative lower bound")
    }

    @Test func laws() {
        OperatorLaws.check { $0.output(in: 1...) }
        OperatorLaws.check { $0.output(at: 1) }
    }
}

@Suite struct PrefixTests {
    @Test func republishesUpToTheCountThenCancelsUpstreamAndFinishes() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(2).record(initialDemand: .max(5))
        upstream.send(1)
        #expect(upstream.events.last != .cancel)
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.events.last == .cancel)
    }

    @Test func zeroFinishesAtTheFirstValueWithoutDeliveringIt() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(0).record()
        upstream.send(1)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func shorterUpstreamFinishesNormally() {
        let recorder = [1, 2].publisher.eraseToAnyPublisher().prefix(5).record()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func failureBeforeTheCountPassesThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.prefix(3).record()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(recorder.events == [.subscription, .value(1), .failure(.oops)])
    }

    @Test func laws() {
        OperatorLaws.check { $0.prefix(10) }
    }
}
