import Testing

@Suite struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func additionIsAdditiveAndSaturates() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(2) + .unlimited == .unlimited)
        #expect(Demand.unlimited + 1 == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
        var demand = Demand.none
        demand += .max(1)
        demand += 2
        #expect(demand == .max(3))
    }

    @Test func subtraction() {
        #expect(Demand.max(5) - .max(3) == .max(2))
        #expect(Demand.max(5) - 5 == .none)
        #expect(Demand.unlimited - .max(3) == .unlimited)
        #expect(Demand.unlimited - 1 == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(3) - .unlimited == .none)
        var demand = Demand.max(3)
        demand -= 1
        demand -= .max(1)
        #expect(demand == .max(1))
    }

    @Test func multiplication() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.unlimited * 4 == .unlimited)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisonsWithIntsAndDemands() {
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited >= 0)
        #expect(!(Demand.unlimited < 5))
        #expect(!(Demand.unlimited <= Int.max))
        #expect(Demand.unlimited != 5)
        #expect(Demand.max(3) == 3)
        #expect(Demand.max(3) > 2)
        #expect(Demand.max(3) >= 3)
        #expect(Demand.max(3) < 4)
        #expect(Demand.max(3) <= 3)
        #expect(3 == Demand.max(3))
        #expect(2 < Demand.max(3))
        #expect(4 > Demand.max(3))
        #expect(3 <= Demand.max(3))
        #expect(3 >= Demand.max(3))
        #expect(1 != Demand.max(3))
        #expect(Demand.max(3) < .unlimited)
        #expect(Demand.none < .max(1))
        #expect(Demand.none == .max(0))
        #expect([Demand.unlimited, .max(2), .none].sorted() == [.none, .max(2), .unlimited])
    }

    @Test func maxAndDescription() {
        #expect(Demand.max(7).max == 7)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(7).description == "max(7)")
        #expect(Set([Demand.max(1), .max(1), .unlimited]).count == 2)
    }

    @Test func negativeMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }
        expectTrapMessage(result, contains: "demand cannot be negative")
    }

    @Test func subtractionBelowZeroTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(1) - .max(2)
        }
        expectTrapMessage(result, contains: "demand cannot be negative")
    }

    @Test func integerSubtractionBelowZeroTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(1) - 2
        }
        expectTrapMessage(result, contains: "demand cannot be negative")
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            [1, 2, 3].publisher.subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "request(_:) was called with demand .none")
    }

    @Test func requestingNoneThroughAnOperatorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: nil)
            Just(1).eraseToAnyPublisher().map { $0 + 1 }.filter { _ in true }.subscribe(recorder)
            recorder.request(.none)
        }
        expectTrapMessage(result, contains: "request(_:) was called with demand .none")
    }
}

@Suite struct CompletionTests {
    @Test func equatableAndHashable() {
        let finished = Subscribers.Completion<TestError>.finished
        #expect(finished == .finished)
        #expect(Subscribers.Completion<TestError>.failure(.oops) != .failure(.other))
        #expect(Set([finished, .failure(.oops), .failure(.oops)]).count == 2)
    }
}
