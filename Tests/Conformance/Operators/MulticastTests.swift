// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Synchronization
import Testing

/// A connectable publisher the test drives by hand: it records subscriptions, requests, cancels,
/// connects and disconnects in one log, keeps every subscriber, and sends to all of them.
private final class ConnectableProbe: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = TestError

    enum Event: Equatable {
        case subscribe
        case request(Subscribers.Demand)
        case cancel
        case connect
        case disconnect
    }

    private(set) var events: [Event] = []
    private(set) var subscribers: [AnySubscriber<Int, TestError>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        events.append(.subscribe)
        subscribers.append(AnySubscriber(subscriber))
        subscriber.receive(subscription: ProbeSubscription(owner: self))
    }

    func connect() -> any Cancellable {
        events.append(.connect)
        return Connection(owner: self)
    }

    /// Logs its cancel only (not its release, unlike `AnyCancellable`), as Combine's tests do.
    private final class Connection: Cancellable {
        weak var owner: ConnectableProbe?
        init(owner: ConnectableProbe) { self.owner = owner }
        func cancel() { owner?.record(.disconnect) }
    }

    /// Sends to every subscriber; returns the demand the last one answered with.
    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand {
        var last = Subscribers.Demand.none
        for subscriber in subscribers { last = subscriber.receive(value) }
        return last
    }

    func send(completion: Subscribers.Completion<TestError>) {
        for subscriber in subscribers { subscriber.receive(completion: completion) }
    }

    fileprivate func record(_ event: Event) { events.append(event) }

    final class ProbeSubscription: Subscription, CustomStringConvertible {
        private weak var owner: ConnectableProbe?
        init(owner: ConnectableProbe) { self.owner = owner }
        var description: String { "ProbeSubscription" }
        func request(_ demand: Subscribers.Demand) { owner?.record(.request(demand)) }
        func cancel() { owner?.record(.cancel) }
    }
}

@Suite struct MulticastTests {
    // MARK: multicast

    /// R69: nothing flows before `connect()`; the subject is subscribed to upstream on connect and
    /// asks it for everything; a late subscriber misses what was sent before it attached; a
    /// subscriber after the completion gets the completion at once.
    @Test func multicastConnectsTheSubjectAndLateSubscribersMissEarlierValues() {
        let upstream = TestPublisher<Int, TestError>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
        let early = multicast.record(initialDemand: .max(3))
        #expect(upstream.events == [])
        #expect(early.events == [.subscription])
        #expect(early.subscriptionDescriptions == ["Multicast"])

        let connection = multicast.connect()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        for value in 1...4 { #expect(upstream.send(value) == .none) }
        #expect(early.values == [1, 2, 3])

        let late = multicast.record(initialDemand: .max(2))
        for value in 5...7 { upstream.send(value) }
        #expect(early.values == [1, 2, 3])
        #expect(late.values == [5, 6])

        upstream.send(completion: .finished)
        let latest = multicast.record()
        #expect(early.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(late.events == [.subscription, .value(5), .value(6), .finished])
        #expect(latest.events == [.subscription, .finished])
        connection.cancel()
        // Upstream completed: there is nothing left to cancel, and it was asked only once.
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// A passthrough subject asks upstream only once a subscriber has asked; the connection's
    /// cancel reaches upstream.
    @Test func connectionCancelReachesUpstream() {
        let upstream = TestPublisher<Int, TestError>()
        let multicast = upstream.multicast { PassthroughSubject<Int, TestError>() }
        let connection = multicast.connect()
        #expect(upstream.events == [.subscribe])
        let recorder = multicast.record(initialDemand: .max(1))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(1)
        connection.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        upstream.sendKeepingSubscriber(2)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    /// Each connect subscribes the subject again: two connections deliver each value twice.
    @Test func connectingTwiceDeliversEveryValueTwice() {
        let upstream = PassthroughSubject<Int, Never>()
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let recorder = multicast.record(initialDemand: .max(10))
        upstream.send(-1)
        let first = multicast.connect()
        let second = multicast.connect()
        upstream.send(42)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(42), .value(42), .finished])
        first.cancel()
        second.cancel()
    }

    /// The subject is made once, lazily, however many subscribers and connections there are.
    @Test func createSubjectRunsOnce() {
        let upstream = PassthroughSubject<Int, TestError>()
        var made = 0
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, TestError> in
            made += 1
            return PassthroughSubject()
        }
        #expect(made == 0)
        let recorders = (0..<3).map { _ in multicast.record() }
        #expect(made == 1)
        let connection = multicast.connect()
        #expect(made == 1)
        upstream.send(7)
        #expect(recorders.map(\.values) == [[7], [7], [7]])
        connection.cancel()
    }

    /// Demand returned from `receive(_:)` is asked of the subject, so it counts.
    @Test func demandReturnedFromReceiveIsForwardedToTheSubject() {
        let subject = PassthroughSubject<Int, TestError>()
        let upstream = TestPublisher<Int, TestError>()
        let multicast = upstream.multicast(subject: subject)
        let returning = multicast.record(initialDemand: .max(1), demandPerValue: .max(1))
        let notReturning = multicast.record(initialDemand: .max(1))
        let connection = multicast.connect()
        for value in 1...3 { upstream.send(value) }
        #expect(returning.values == [1, 2, 3])
        #expect(notReturning.values == [1])
        connection.cancel()
    }

    /// A request from inside `receive` is honoured; a cancel from inside stops that subscriber
    /// only, and does not disconnect.
    @Test func reentrantRequestAndCancel() {
        let upstream = TestPublisher<Int, TestError>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
        let requester = multicast.record(initialDemand: .max(1))
        requester.onValue = { _ in requester.request(.max(1)) }
        let canceller = multicast.record(cancelAfterValues: 2)
        let connection = multicast.connect()
        for value in 1...4 { upstream.send(value) }
        upstream.send(completion: .failure(.oops))
        #expect(requester.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .failure(.oops)])
        #expect(canceller.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        connection.cancel()
    }

    /// A failure reaches every subscriber once; a subscriber that attaches later gets it at once.
    @Test func failureReachesEverySubscriber() {
        let upstream = TestPublisher<Int, TestError>()
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
        let first = multicast.record()
        let second = multicast.record(initialDemand: .max(1))
        let connection = multicast.connect()
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        upstream.sendKeepingSubscriber(2)
        let third = multicast.record()
        #expect(first.events == [.subscription, .value(1), .failure(.oops)])
        #expect(second.events == [.subscription, .value(1), .failure(.oops)])
        #expect(third.events == [.subscription, .failure(.oops)])
        connection.cancel()
    }

    // MARK: makeConnectable

    /// R70 oracle: `Just("woot").makeConnectable()` delivers nothing until `connect()`.
    @Test func makeConnectableWaitsForConnect() {
        let connectable = Just("woot").makeConnectable()
        let recorder = connectable.record()
        #expect(recorder.events == [.subscription])
        #expect(recorder.subscriptionDescriptions == ["Multicast"])
        let connection = connectable.connect()
        #expect(recorder.events == [.subscription, .value("woot"), .finished])
        connection.cancel()
    }

    /// Disconnect, then connect again: values sent while disconnected are lost; a subscriber
    /// attached twice receives twice.
    @Test func makeConnectableDisconnectAndReconnect() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let recorder = connectable.record()
        upstream.send(-1)
        var connection = connectable.connect()
        upstream.send(42)
        connection.cancel()
        upstream.send(100)
        connectable.subscribe(recorder)
        connection = connectable.connect()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(
            recorder.events == [.subscription, .value(42), .subscription, .value(2), .value(2), .finished, .finished])
        connection.cancel()
    }

    /// Copies of one `makeConnectable()` value share one subject.
    @Test func makeConnectableCopiesShareOneSubject() {
        let upstream = PassthroughSubject<Int, Never>()
        let connectable = upstream.makeConnectable()
        let copy = connectable
        let recorder = copy.record()
        let connection = connectable.connect()
        upstream.send(5)
        #expect(recorder.values == [5])
        connection.cancel()
    }

    // MARK: share

    /// The first subscriber connects; upstream is asked for everything once; a late subscriber
    /// misses earlier values (nothing is replayed); a subscriber after the completion gets it at
    /// once and does not resubscribe.
    @Test func shareConnectsOnFirstSubscriberAndDoesNotReplay() {
        let upstream = TestPublisher<Int, TestError>()
        let shared = upstream.share()
        #expect(upstream.events == [])
        let early = shared.record(initialDemand: .max(3))
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        #expect(early.subscriptionDescriptions == ["Multicast"])
        for value in 1...4 { #expect(upstream.send(value) == .none) }
        let late = shared.record(initialDemand: .max(2))
        for value in 5...7 { upstream.send(value) }
        upstream.send(completion: .finished)
        let latest = shared.record()
        // As Combine's (OpenCombine's ShareTests.testLateSubscriber): a request for `.none` goes
        // through to the multicast, which takes it.
        var asksForNothing: [String] = []
        shared.subscribe(
            AnySubscriber<Int, TestError>(
                receiveSubscription: { $0.request(.none) }, receiveCompletion: { asksForNothing.append("\($0)") }))
        #expect(early.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(late.events == [.subscription, .value(5), .value(6), .finished])
        #expect(latest.events == [.subscription, .finished])
        #expect(asksForNothing == ["finished"])
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
    }

    /// The upstream subscription is cancelled when the last subscriber cancels, and a new
    /// subscriber after that connects afresh.
    @Test func shareCancelsUpstreamWithTheLastSubscriber() {
        let upstream = TestPublisher<Int, TestError>()
        let shared = upstream.share()
        let first = shared.record()
        let second = shared.record()
        upstream.send(1)
        first.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited)])
        upstream.send(2)
        second.cancel()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
        let third = shared.record()
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel, .subscribe, .request(.unlimited)])
        upstream.send(3)
        #expect(first.values == [1])
        #expect(second.values == [1, 2])
        #expect(third.values == [3])
    }

    @Test func shareIsEqualOnlyToItself() {
        let upstream = TestPublisher<Int, TestError>()
        let first = upstream.share()
        let second = upstream.share()
        #expect(first == first)
        #expect(first != second)
        #expect(second != first)
    }

    @Test func shareLaws() {
        OperatorLaws.check { $0.share() }
    }

    /// Several threads attach subscribers to one `share()` and cancel them while another thread
    /// sends into the upstream subject. A subscriber that stays throughout sees every value once,
    /// in order; each passing subscriber sees a gap-free run; nobody is called twice at once or
    /// after its end.
    @Test func shareWithSubscribersComingAndGoingWhileAnotherThreadSends() {
        let total = 10_000
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let steady = RunChecker()
        shared.subscribe(steady)
        let transientChecks = TestLock<[RunChecker]>([])
        let box = ShareBox(shared: shared, upstream: upstream)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for value in 1...total { box.upstream.send(value) }
                box.upstream.send(completion: .finished)
                return
            }
            var mine: [RunChecker] = []
            for round in 0..<200 {
                let checker = RunChecker()
                box.shared.subscribe(checker)
                if round % 3 != 0 { checker.cancel() }
                mine.append(checker)
            }
            transientChecks.withLock { $0 += mine }
        }
        #expect(steady.received.load(ordering: .relaxed) == total)
        #expect(steady.broken.load(ordering: .relaxed) == 0)
        #expect(steady.completions.load(ordering: .relaxed) == 1)
        let checkers = transientChecks.withLock { $0 }
        #expect(checkers.count == 600)
        for checker in checkers {
            #expect(checker.broken.load(ordering: .relaxed) == 0)
            #expect(checker.completions.load(ordering: .relaxed) <= 1)
        }
        // Those never cancelled end with the stream.
        #expect(
            checkers.enumerated().filter { $0.offset % 200 % 3 == 0 }.allSatisfy {
                $0.element.completions.load(ordering: .relaxed) == 1
            })
    }

    // MARK: autoconnect

    /// The first subscriber connects; the cancel that brings the count to zero disconnects;
    /// events pass through untouched; every cancel goes upstream, each subscriber counts once.
    @Test func autoconnectCountsSubscribers() {
        let probe = ConnectableProbe()
        let auto = probe.autoconnect()
        #expect(probe.events == [])
        let first = auto.record(initialDemand: .max(101))
        #expect(probe.events == [.subscribe, .request(.max(101)), .connect])
        let second = auto.record(initialDemand: .max(102))
        let third = auto.record(initialDemand: .max(103), demandPerValue: .max(203))
        #expect(
            probe.events == [
                .subscribe, .request(.max(101)), .connect, .subscribe, .request(.max(102)), .subscribe,
                .request(.max(103)),
            ])
        #expect(third.subscriptionDescriptions == ["ProbeSubscription"])
        #expect(probe.send(1) == .max(203))
        #expect(third.events == [.subscription, .value(1)])

        let base = probe.events.count
        second.cancel()
        third.cancel()
        #expect(Array(probe.events.dropFirst(base)) == [.cancel, .cancel])
        first.cancel()
        #expect(Array(probe.events.dropFirst(base)) == [.cancel, .cancel, .cancel, .disconnect])
        #expect(first.values == [1])
    }

    /// Autoconnect passes events through untouched, a completion included, and a completion
    /// does not count as a subscriber leaving.
    @Test func autoconnectCompletionDoesNotDisconnect() {
        let probe = ConnectableProbe()
        let auto = probe.autoconnect()
        var held: (any Subscription)?
        var events: [String] = []
        auto.subscribe(
            AnySubscriber<Int, TestError>(
                receiveSubscription: {
                    held = $0; $0.request(.max(2))
                },
                receiveValue: {
                    events.append("\($0)"); return .none
                },
                receiveCompletion: { events.append("\($0)") }))
        probe.send(1)
        probe.send(completion: .finished)
        #expect(events == ["1", "finished"])
        #expect(probe.events == [.subscribe, .request(.max(2)), .connect])
        held?.cancel()
        #expect(probe.events == [.subscribe, .request(.max(2)), .connect, .cancel, .disconnect])
    }

    /// A second cancel of the same subscription goes upstream again but does not count again.
    @Test func autoconnectDoubleCancelCountsOnce() {
        let probe = ConnectableProbe()
        let auto = probe.autoconnect()
        var held: [any Subscription] = []
        let subscriber = AnySubscriber<Int, TestError>(receiveSubscription: { held.append($0) })
        auto.subscribe(subscriber)
        auto.subscribe(subscriber)
        #expect(probe.events == [.subscribe, .connect, .subscribe])
        held[0].cancel()
        held[0].cancel()
        #expect(probe.events == [.subscribe, .connect, .subscribe, .cancel, .cancel])
        held[1].cancel()
        #expect(probe.events == [.subscribe, .connect, .subscribe, .cancel, .cancel, .cancel, .disconnect])
    }

    /// A subscriber that subscribes another from inside `receive(subscription:)`: both found no
    /// connection, so both connect (as in Combine); the later connection is the one counted.
    @Test func autoconnectReentrantSubscribeConnectsTwice() {
        let probe = ConnectableProbe()
        let auto = probe.autoconnect()
        var innerSubscription: (any Subscription)?
        var outerSubscription: (any Subscription)?
        let inner = AnySubscriber<Int, TestError>(receiveSubscription: { innerSubscription = $0 })
        let outer = AnySubscriber<Int, TestError>(receiveSubscription: {
            outerSubscription = $0
            auto.subscribe(inner)
        })
        auto.subscribe(outer)
        #expect(probe.events == [.subscribe, .subscribe, .connect, .connect])
        outerSubscription?.cancel()
        #expect(probe.events == [.subscribe, .subscribe, .connect, .connect, .cancel, .disconnect])
        innerSubscription?.cancel()
        #expect(probe.events == [.subscribe, .subscribe, .connect, .connect, .cancel, .disconnect, .cancel])
    }

    /// R70 oracle: `autoconnect()` makes a connectable publisher behave like an ordinary one.
    @Test func autoconnectOverMakeConnectable() {
        let recorder = Just("woot").makeConnectable().autoconnect().record()
        #expect(recorder.events == [.subscription, .value("woot"), .finished])
    }
}

/// Checks, for thread tests, that a subscriber sees a gap-free increasing run, no overlapping
/// calls, and nothing after its completion.
private final class RunChecker: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let received = Atomic<Int>(0)
    let broken = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    private let inFlight = Atomic<Bool>(false)
    /// Set inside `subscribe`, on the thread that later cancels.
    private var subscription: (any Subscription)?
    /// Touched only inside `receive`, which must never overlap.
    private var last: Int?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        if inFlight.exchange(true, ordering: .acquiring) { broken.add(1, ordering: .relaxed) }
        if completions.load(ordering: .relaxed) > 0 { broken.add(1, ordering: .relaxed) }
        if let last, input != last + 1 { broken.add(1, ordering: .relaxed) }
        last = input
        received.add(1, ordering: .relaxed)
        inFlight.store(false, ordering: .releasing)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        if inFlight.exchange(true, ordering: .acquiring) { broken.add(1, ordering: .relaxed) }
        completions.add(1, ordering: .relaxed)
        inFlight.store(false, ordering: .releasing)
    }

    func cancel() {
        subscription?.cancel()
    }
}

/// Publishers and subjects are not `Sendable` in Combine's API; the thread test shares them on purpose.
private struct ShareBox: @unchecked Sendable {
    let shared: Publishers.Share<PassthroughSubject<Int, Never>>
    let upstream: PassthroughSubject<Int, Never>
}
