// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Synchronization
import Testing

/// `@Published`, `ObservableObject` and `assign(to:)`, as Apple's behave (OpenCombine's
/// PublishedTests, ObservableObjectTests and ObservableObjectPublisherTests, which scripts/compat
/// runs, have the demand and reflection edges).
@Suite struct PublishedTests {
    final class Model: ObservableObject {
        @Published var count = 0
        @Published var name = "a"
        var plain = 0
    }

    class Base: ObservableObject {
        @Published var base = 0
    }

    final class Derived: Base {
        @Published var derived = 0
    }

    final class NoPublishedFields: ObservableObject {
        var plain = 0
    }

    /// Who saw what, in order, and what the property held at that moment.
    final class Log: @unchecked Sendable {
        private let entries = TestLock<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func objectWillChangeFiresFirstThenThePropertyPublishesThenTheValueIsStored() {
        let model = Model()
        let log = Log()
        let willChange = model.objectWillChange.sink { log.add("willChange count=\(model.count)") }
        let values = model.$count.sink { log.add("value \($0) count=\(model.count)") }
        model.count = 1
        model.count += 1
        #expect(
            log.all == [
                "value 0 count=0",
                "willChange count=0", "value 1 count=0",
                "willChange count=1", "value 2 count=1",
            ])
        #expect(model.count == 2)
        withExtendedLifetime((willChange, values)) {}
    }

    @Test func theProjectedPublisherSendsTheCurrentValueOnFirstDemandAndHonoursDemand() {
        let model = Model()
        model.count = 5
        let subscriber = model.$count.record(initialDemand: nil)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        model.count = 6
        model.count = 7
        // No demand: owed the latest value when it next asks, as a CurrentValueSubject.
        subscriber.request(.max(5))
        #expect(subscriber.values == [5, 7])
        #expect(subscriber.subscriptionDescriptions == ["PublishedSubject"])
    }

    @Test func objectWillChangeIsOnePublisherPerObjectAndCoversSuperclassFields() {
        let object = Derived()
        #expect(object.objectWillChange === object.objectWillChange)
        var signals = 0
        let token = object.objectWillChange.sink { signals += 1 }
        object.base = 1
        object.derived = 1
        #expect(signals == 2)
        #expect(Derived().objectWillChange !== object.objectWillChange)
        withExtendedLifetime(token) {}
    }

    /// As Combine's since iOS 13.3 (OpenCombine's testNoFields, commented out there as a TODO): the
    /// same publisher on every access, and another object's is another.
    @Test func anObjectWithoutPublishedFieldsGetsTheSamePublisherEachTime() {
        let object = NoPublishedFields()
        let publisher = object.objectWillChange
        #expect(object.objectWillChange === publisher)
        #expect(NoPublishedFields().objectWillChange !== publisher)
        var signals = 0
        let token = object.objectWillChange.sink { signals += 1 }
        publisher.send()
        #expect(signals == 1)
        withExtendedLifetime(token) {}
        // Many objects come and go: each keeps its own while it lives.
        for _ in 0..<1_000 {
            let other = NoPublishedFields()
            #expect(other.objectWillChange === other.objectWillChange)
        }
        #expect(object.objectWillChange === publisher)
    }

    @Test func objectWillChangeIgnoresDemand() {
        let model = Model()
        let subscriber = model.objectWillChange.record(initialDemand: .max(1))
        model.count = 1
        model.name = "b"
        model.count = 2
        #expect(subscriber.values.count == 3)
        subscriber.cancel()
        model.count = 3
        #expect(subscriber.values.count == 3)
    }

    @Test func assignToPublishedFeedsThePropertyAndFiresObjectWillChange() {
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        var signals = 0
        let token = model.objectWillChange.sink { signals += 1 }
        subject.assign(to: &model.$count)
        subject.send(3)
        subject.send(4)
        #expect(model.count == 4)
        #expect(signals == 2)
        // A completion ends the assignment and leaves the property as it is.
        subject.send(completion: .finished)
        #expect(model.count == 4)
        withExtendedLifetime(token) {}
    }

    @Test func assignToPublishedEndsWhenTheObjectIsFreed() {
        let upstream = TestPublisher<Int, Never>()
        weak var freed: Model?
        do {
            let model = Model()
            freed = model
            upstream.assign(to: &model.$count)
            #expect(upstream.requested == .unlimited)
            upstream.send(9)
            #expect(model.count == 9)
        }
        #expect(freed == nil)
        #expect(upstream.cancelCount == 1)
    }

    /// As Combine's: "calling assign(to:) several times on the same published property does not
    /// replace existing subscriptions. New subscriptions will pile up". Both keep assigning until
    /// the object is freed, which cancels both.
    @Test func aSecondAssignPilesUpBesideTheFirst() {
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        do {
            let model = Model()
            first.assign(to: &model.$count)
            second.assign(to: &model.$count)
            #expect(first.cancelCount == 0)
            second.send(2)
            #expect(model.count == 2)
            first.send(1)
            #expect(model.count == 1)
        }
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
    }

    /// Many threads setting properties: each subscriber receives the values one at a time, and none
    /// is lost.
    @Test func manyThreadsSettingPropertiesLoseNothingAndDeliverSerially() {
        let model = Model()
        final class Counter: @unchecked Sendable {
            let values = TestLock<[Int]>([])
            let signals = Atomic(0)
            let inside = Atomic(0)
            let overlapped = Atomic(false)
        }
        let counter = Counter()
        let values = model.$count.dropFirst().sink { value in
            if counter.inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                counter.overlapped.store(true, ordering: .relaxed)
            }
            counter.values.withLock { $0.append(value) }
            _ = counter.inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        let willChange = model.objectWillChange.sink { _ = counter.signals.add(1, ordering: .relaxed) }
        nonisolated(unsafe) let shared = model
        onThreads(4) { thread in
            for index in 0..<500 { shared.count = thread * 1_000 + index }
        }
        let received = counter.values.withLock { $0 }
        #expect(received.count == 2_000)
        #expect(Set(received).count == 2_000)
        #expect(counter.signals.load(ordering: .relaxed) == 2_000)
        let overlapped = counter.overlapped.load(ordering: .relaxed)
        #expect(!overlapped)
        #expect(received.contains(model.count))
        withExtendedLifetime((values, willChange)) {}
    }
}
