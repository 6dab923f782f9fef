// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluicePrograms
import Testing

/// The test kit's equivalence check: an operator written by hand against a specification made of
/// operators that exist, over generated programs; a mismatch comes back shrunk, as Swift, with both
/// traces. (The differential suite compares the two implementations with the same machinery.)
@Suite struct EquivalenceCheckTests {
    @Test func aHandWrittenOperatorMatchesItsSpecification() {
        let report = checkEquivalence(of: { RunningTotal(upstream: $0.upstream) }, to: { $0.upstream.scan(0, &+) })
        #expect(report.isEquivalent, "\(report)")
        #expect(report.programs == 500)
        #expect(report.description == "equivalent on 500 programs (seed 1)")
    }

    @Test func anOperatorThatAsksUpstreamForEverythingIsToldApart() throws {
        let report = checkEquivalence(
            of: { BrokenOperator(upstream: $0.upstream, fault: .requestsUnlimited) }, to: { $0.upstream.map { $0 } })
        let divergence = try #require(report.divergence, "\(report)")
        // Only the test upstream shows the demand an operator sends: the mismatch is shrunk onto it.
        #expect(divergence.shrunk.source == .upstream, "\(report)")
        #expect(divergence.shrunk.steps.count <= divergence.original.steps.count)
        #expect(divergence.leftTrace.contains("upstream: request(.unlimited)"), "\(report)")
        #expect(!divergence.rightTrace.contains("upstream: request(.unlimited)"), "\(report)")
        // Shrunk as far as it goes: nothing simpler tells them apart.
        let simpler = checkEquivalence(
            of: { BrokenOperator(upstream: $0.upstream, fault: .requestsUnlimited) }, to: { $0.upstream.map { $0 } },
            on: divergence.shrunk.shrinkCandidates)
        #expect(simpler.isEquivalent, "\(simpler)")
        #expect(simpler.programs == divergence.shrunk.shrinkCandidates.count)
        #expect(
            checkEquivalence(of: { $0.upstream }, to: { $0.upstream.map { $0 } }, on: [divergence.shrunk]).isEquivalent)
        #expect(report.description.contains("let upstream = TestPublisher<Int, any Error>()"), "\(report)")
        #expect(report.description.contains("operatorUnderTest(input)"), "\(report)")
        #expect(report.description.contains(">> "), "\(report)")
    }

    @Test func anOperatorThatForgetsToCancelUpstreamIsToldApart() throws {
        let report = checkEquivalence(
            of: { BrokenOperator(upstream: $0.upstream, fault: .forgetsCancel) }, to: { $0.upstream.map { $0 } })
        let divergence = try #require(report.divergence, "\(report)")
        #expect(!divergence.leftTrace.contains("upstream: cancel"), "\(report)")
        #expect(divergence.rightTrace.contains("upstream: cancel"), "\(report)")
    }

    @Test func operatorsOnTheClockAreComparedInVirtualTime() throws {
        let reordered = checkEquivalence(
            of: { $0.upstream.receive(on: $0.scheduler).map { $0 &* 2 } },
            to: { $0.upstream.map { $0 &* 2 }.receive(on: $0.scheduler) })
        #expect(reordered.isEquivalent, "\(reordered)")
        let report = checkEquivalence(
            of: { $0.upstream.throttle(for: .milliseconds(10), scheduler: $0.scheduler, latest: true) },
            to: { $0.upstream.debounce(for: .milliseconds(10), scheduler: $0.scheduler) })
        let divergence = try #require(report.divergence, "\(report)")
        // The trace carries the instants, and the printed program moves the clock.
        #expect(divergence.leftTrace.allSatisfy { $0.hasPrefix("t=") }, "\(report)")
        #expect(report.description.contains("let scheduler = VirtualTimeScheduler()"), "\(report)")
    }

    @Test func operatorsOverTwoPublishersGetTheSecondSubject() throws {
        let report = checkEquivalence(
            of: { $0.upstream.zip($0.other).map { $0 &+ $1 } },
            to: { $0.upstream.combineLatest($0.other).map { $0 &+ $1 } })
        let divergence = try #require(report.divergence, "\(report)")
        #expect(divergence.shrunk.steps.contains { if case .sendOther = $0 { true } else { false } }, "\(report)")
        #expect(report.description.contains("let other = PassthroughSubject<Int, any Error>()"), "\(report)")
        let same = checkEquivalence(
            of: { $0.upstream.merge(with: $0.other) }, to: { Publishers.Merge($0.upstream, $0.other) }, programs: 200)
        #expect(same.isEquivalent, "\(same)")
    }

    @Test func expectEquivalenceRecordsTheProgramThatTellsThemApart() {
        expectEquivalence(of: { RunningTotal(upstream: $0.upstream) }, to: { $0.upstream.scan(0, &+) }, programs: 100)
        withKnownIssue {
            expectEquivalence(
                of: { BrokenOperator(upstream: $0.upstream, fault: .forgetsCancel) }, to: { $0.upstream.map { $0 } })
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("NOT equivalent: program ") }
        }
    }

    @Test func theSameSeedRunsTheSamePrograms() {
        let check = {
            checkEquivalence(
                of: { BrokenOperator(upstream: $0.upstream, fault: .requestsUnlimited) },
                to: { $0.upstream.map { $0 } }, seed: 42)
        }
        let (first, second) = (check(), check())
        #expect(first.programs == second.programs)
        #expect(first.divergence?.original == second.divergence?.original)
        #expect(first.divergence?.shrunk == second.divergence?.shrunk)
    }
}

/// A running total (`scan(0, &+)`) written by hand, right: demand and cancel go upstream as they
/// come, and nothing reaches the subscriber once it cancelled or the stream ended.
struct RunningTotal<Upstream: Publisher>: Publisher where Upstream.Output == Int {
    typealias Output = Int
    typealias Failure = Upstream.Failure

    let upstream: Upstream

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Failure {
        upstream.subscribe(Link(downstream: subscriber))
    }

    /// Subscriber upstream and subscription downstream, one thread at a time.
    final class Link<Downstream: Subscriber>: Subscriber, Subscription
    where Downstream.Input == Int, Downstream.Failure == Failure {
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
        private var total = 0

        init(downstream: Downstream) { self.downstream = downstream }

        func receive(subscription: any Subscription) {
            guard upstream == nil, let downstream else { return subscription.cancel() }
            upstream = subscription
            downstream.receive(subscription: self)
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            guard let downstream else { return .none }
            total &+= input
            return downstream.receive(total)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let downstream = self.downstream
            self.downstream = nil
            upstream = nil
            downstream?.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) { upstream?.request(demand) }

        func cancel() {
            downstream = nil
            upstream?.cancel()
            upstream = nil
        }
    }
}
