// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct RelayTests {
    @Test func aPassthroughRelayPassesOnValuesToItsSubscribersInSubscriptionOrder() {
        let relay = PassthroughRelay<Int>()
        var log: [String] = []
        let cancellables = (0..<4).map { index in relay.sink { log.append("\(index):\($0)") } }
        relay.accept(1)
        relay.accept(2)
        #expect(log == ["0:1", "1:1", "2:1", "3:1", "0:2", "1:2", "2:2", "3:2"])
        withExtendedLifetime(cancellables) {}
    }

    @Test func aPassthroughRelayRespectsDemandLikeAPassthroughSubject() {
        let relay = PassthroughRelay<Int>()
        let recorder = relay.record(initialDemand: .max(1))
        relay.accept(1)
        relay.accept(2)
        recorder.request(.max(1))
        relay.accept(3)
        #expect(recorder.values == [1, 3])
    }

    @Test func aCurrentValueRelayGivesEachSubscriberItsValueThenEveryNewOne() {
        let relay = CurrentValueRelay("a")
        let early = relay.record()
        relay.accept("b")
        let late = relay.record()
        relay.accept("c")
        #expect(relay.value == "c")
        #expect(early.values == ["a", "b", "c"])
        #expect(late.values == ["b", "c"])
    }

    @Test func aSubscribedPublishersCompletionIsNotRelayed() {
        let relay = CurrentValueRelay(0)
        let recorder = relay.record()
        let relaying = [1, 2, 3].publisher.subscribe(relay)
        let another = Just(4).subscribe(relay)
        relay.accept(5)
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .value(5)])
        withExtendedLifetime((relaying, another)) {}
    }

    @Test func cancellingASubscribedPublisherStopsItsValues() {
        let relay = PassthroughRelay<Int>()
        let upstream = PassthroughSubject<Int, Never>()
        let recorder = relay.record()
        let relaying = relay.subscribe(upstream)
        upstream.send(1)
        relaying.cancel()
        upstream.send(2)
        relay.accept(3)
        #expect(recorder.values == [1, 3])
    }

    @Test func aRelaySubscribedToAnotherRelaySendsItsValuesThere() {
        let source = CurrentValueRelay(1)
        let destination = PassthroughRelay<Int>()
        let recorder = destination.record()
        let relaying = source.subscribe(destination)
        source.accept(2)
        destination.accept(3)
        #expect(recorder.values == [1, 2, 3], "values flow from the receiver into the argument, as in CombineExt")
        #expect(source.value == 2)
        let back = PassthroughRelay<Int>()
        let backRecorder = back.record()
        let relayingBack = destination.subscribe(back)
        destination.accept(4)
        #expect(backRecorder.values == [4])
        withExtendedLifetime((relaying, relayingBack)) {}
    }

    /// CombineExt's `testSubscribeRelay_CurrentValueToPassthrough`: the destination's subject asks
    /// the source only once a subscriber of its own has asked, so the current value waits for it.
    @Test func aCurrentValueRelaysValueWaitsForTheSubscriberOfTheRelayItIsSubscribedTo() {
        let input = CurrentValueRelay("initial")
        let output = PassthroughRelay<String>()
        let relaying = input.subscribe(output)
        var received: [String] = []
        let sink = output.sink { received.append($0) }
        input.accept("1")
        input.accept("2")
        input.accept("3")
        #expect(received == ["initial", "1", "2", "3"])
        withExtendedLifetime((relaying, sink)) {}
    }

    @Test func aPublisherSubscribedIntoARelayIsAskedOnlyOnceTheRelayIsAsked() {
        let relay = PassthroughRelay<Int>()
        let upstream = TestPublisher<Int, Never>()
        let relaying = relay.subscribe(upstream)
        #expect(upstream.events == [.subscribe])
        let recorder = relay.record(initialDemand: .max(1))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        upstream.send(completion: .finished)
        relay.accept(2)
        recorder.request(.max(1))
        relay.accept(3)
        #expect(recorder.events == [.subscription, .value(1), .value(3)], "upstream's completion is not relayed")
        relaying.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited)], "nothing to cancel after upstream completed")
    }

    @Test func aFreedRelayFinishesItsSubscribers() {
        var passthrough: PassthroughRelay<Int>? = PassthroughRelay()
        var current: CurrentValueRelay<Int>? = CurrentValueRelay(0)
        let passthroughRecorder = passthrough!.record()
        let currentRecorder = current!.record()
        passthrough?.accept(1)
        current?.accept(1)
        #expect(passthroughRecorder.completions.isEmpty && currentRecorder.completions.isEmpty)
        passthrough = nil
        current = nil
        #expect(passthroughRecorder.events == [.subscription, .value(1), .finished])
        #expect(currentRecorder.events == [.subscription, .value(0), .value(1), .finished])
    }

    @Test func aRelayOfVoidAcceptsWithoutAnArgument() {
        let relay = PassthroughRelay<Void>()
        var count = 0
        let cancellable = relay.sink { count += 1 }
        relay.accept()
        relay.accept()
        #expect(count == 2)
        withExtendedLifetime(cancellable) {}
    }
}
