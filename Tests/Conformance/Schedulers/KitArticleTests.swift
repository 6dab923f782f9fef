import Testing

/// The examples of SluiceTesting's DocC articles (Sources/SluiceTesting/SluiceTesting.docc), as
/// tests, so that what the articles say the kit does is what it does.
@Suite struct KitArticleTests {
    let ms = { (n: Int) in VirtualTime(nanoseconds: n * 1_000_000) }

    @Test func aLateSubscriberOfAHotPublisherSeesWhatComesAfterIt() {
        let scheduler = VirtualTimeScheduler()
        let hot = TestablePublisher<Character, Never>(.hot, "-a-b-c|", on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let late = hot.recordTimeline(on: scheduler)
        scheduler.run()
        #expect(late.diagram() == "---b-c|")
        #expect(late.diagram(start: ms(2)) == "-b-c|")
        #expect(late.values == ["b", "c"])
    }

    @Test func aColdPublisherPlaysTheScriptForEachSubscriber() {
        let scheduler = VirtualTimeScheduler()
        let cold = TestablePublisher<Character, TestError>(.cold, "-a-b|", on: scheduler)
        let first = cold.recordTimeline(on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let second = cold.recordTimeline(on: scheduler)
        scheduler.run()
        #expect(first.diagram() == "-a-b|")
        #expect(second.diagram() == "---a-b|")
    }

    @Test func debounceOnAHotPublisher() {
        let scheduler = VirtualTimeScheduler()
        let typed = TestablePublisher<Character, Never>(.hot, "-ab---c---|", on: scheduler)
        let recorder = typed.debounce(for: .milliseconds(2), scheduler: scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram() == "----b---c-|")
    }

    @Test func delayShiftsWhatALateSubscriberSees() {
        let scheduler = VirtualTimeScheduler()
        let hot = TestablePublisher<Character, Never>(.hot, "-a--b--c|", on: scheduler)
        scheduler.advance(by: .milliseconds(2))
        let recorder = hot.delay(for: .milliseconds(2), scheduler: scheduler).recordTimeline(on: scheduler)
        scheduler.run()
        #expect(recorder.diagram() == "------b--c|")
    }

    @Test func theLedgerShowsTheDemandTrafficAndWhatDemandWasMissing() {
        let scheduler = VirtualTimeScheduler()
        let cold = TestablePublisher<Character, TestError>(.cold, "abc-d|", on: scheduler)
        let recorder = cold.recordTimeline(on: scheduler, demand: DemandScript(initial: .max(1)))
        scheduler.advance(by: .milliseconds(3))
        recorder.request(.max(1))
        scheduler.advance(by: .milliseconds(1))
        recorder.cancel()
        scheduler.run()
        #expect(
            cold.ledgers == [
                [
                    .subscribed(ms(0)), .requested(.max(1), ms(0)), .overflowed(ms(1)), .overflowed(ms(2)),
                    .requested(.max(1), ms(3)), .cancelled(ms(4)),
                ]
            ])
        #expect(recorder.diagram() == "a---d")
    }

    @Test func collectKeepsToDemand() {
        let scheduler = VirtualTimeScheduler()
        let source = TestablePublisher<Character, Never>(.cold, "abcde|", on: scheduler)
        let recorder = source.collect(2).recordTimeline(on: scheduler, demand: .oneByOne)
        scheduler.run()
        #expect(recorder.values == [["a", "b"], ["c", "d"], ["e"]])
        #expect(recorder.valuesBeyondDemand == 0)
        #expect(source.ledgers == [[.subscribed(.zero), .requested(.max(2), .zero)]])
    }

    @Test func collectAsksForNoMoreThanOneArray() {
        let scheduler = VirtualTimeScheduler()
        let source = TestablePublisher<Character, Never>(.cold, "abcde|", on: scheduler)
        let recorder = source.collect(2).recordTimeline(on: scheduler, demand: DemandScript(initial: .max(1)))
        scheduler.run()
        #expect(recorder.values == [["a", "b"]])
        #expect(recorder.valuesBeyondDemand == 0)
        #expect(
            source.ledgers == [
                [
                    .subscribed(ms(0)), .requested(.max(2), ms(0)), .overflowed(ms(2)), .overflowed(ms(3)),
                    .overflowed(ms(4)),
                ]
            ])
    }

    @Test func mapAndCollectKeepToDemand() {
        func overflowsAndExcess<P: Publisher>(
            _ diagram: String, _ make: (TestablePublisher<Character, Never>) -> P
        ) -> (overflows: Int, beyondDemand: Int) where P.Failure == Never {
            let scheduler = VirtualTimeScheduler()
            let source = TestablePublisher<Character, Never>(.cold, diagram, on: scheduler)
            let recorder = make(source).recordTimeline(on: scheduler, demand: .oneByOne)
            scheduler.run()
            let overflows = source.ledgers.flatMap { $0 }.filter { if case .overflowed = $0 { true } else { false } }
            return (overflows.count, recorder.valuesBeyondDemand)
        }
        #expect(overflowsAndExcess("a-b-c|") { $0.map { $0 } } == (0, 0))
        #expect(overflowsAndExcess("abcde|") { $0.collect(2) } == (0, 0))
        let buffered = overflowsAndExcess("abcde|") { $0.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest) }
        #expect(buffered.beyondDemand == 0)
    }

    @Test func aPublisherThatIgnoresDemandIsCaught() {
        struct Unruly: Publisher {
            typealias Output = Int
            typealias Failure = Never
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscriptions.empty)
                _ = subscriber.receive(1)
                _ = subscriber.receive(2)
                subscriber.receive(completion: .finished)
            }
        }
        let scheduler = VirtualTimeScheduler()
        let recorder = Unruly().recordTimeline(on: scheduler, demand: DemandScript(initial: .max(1)))
        #expect(recorder.values == [1, 2])
        #expect(recorder.valuesBeyondDemand == 1)
    }

    @Test func theDifferenceNamesTheEventsThatDiffer() {
        let scheduler = VirtualTimeScheduler()
        let source = TestablePublisher<Character, Never>(.cold, "-a-b-c|", on: scheduler)
        let recorder = source.recordTimeline(on: scheduler)
        scheduler.run()
        let difference = recorder.difference(from: [
            TimedEvent(ms(0), .subscription), TimedEvent(ms(1), .value("a")), TimedEvent(ms(5), .value("c")),
            TimedEvent(ms(6), .finished),
        ])
        #expect(
            difference == """
                  t=0ms subscription
                  t=1ms value(a)
                - t=5ms value(c)
                + t=3ms value(b)
                - t=6ms finished
                + t=5ms value(c)
                + t=6ms finished
                """)
    }
}
