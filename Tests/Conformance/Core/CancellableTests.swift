// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct AnyCancellableTests {
    final class Counter {
        var count = 0
    }

    @Test func cancelsOnceEvenWhenCalledTwice() {
        let counter = Counter()
        let token = AnyCancellable { counter.count += 1 }
        token.cancel()
        token.cancel()
        #expect(counter.count == 1)
    }

    @Test func cancelsOnDeinit() {
        let counter = Counter()
        do {
            _ = AnyCancellable { counter.count += 1 }
        }
        #expect(counter.count == 1)
    }

    @Test func wrapsACancellable() {
        struct Canceller: Cancellable {
            let counter: Counter
            func cancel() { counter.count += 10 }
        }
        let counter = Counter()
        AnyCancellable(Canceller(counter: counter)).cancel()
        #expect(counter.count == 10)
    }

    @Test func wrapsACancellableObjectAndLetsGoOfItWhenCancelled() {
        final class Canceller: Cancellable {
            let counter: Counter
            init(counter: Counter) { self.counter = counter }
            func cancel() { counter.count += 1 }
        }
        let counter = Counter()
        weak var wrapped: Canceller?
        let token: AnyCancellable
        do {
            let canceller = Canceller(counter: counter)
            wrapped = canceller
            token = AnyCancellable(canceller)
        }
        #expect(wrapped != nil)
        token.cancel()
        #expect(wrapped == nil)
        token.cancel()
        #expect(counter.count == 1)
    }

    @Test func storesInSetAndArray() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        var array = [AnyCancellable]()
        AnyCancellable { counter.count += 1 }.store(in: &set)
        AnyCancellable { counter.count += 1 }.store(in: &array)
        #expect(set.count == 1 && array.count == 1)
        #expect(counter.count == 0)
        set.removeAll()
        array.removeAll()
        #expect(counter.count == 2)
    }

    @Test func cancellableProtocolStoresWrapped() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var set = Set<AnyCancellable>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        subject.subscribe(sink)
        sink.store(in: &set)
        subject.send(1)
        set.removeAll()
        subject.send(2)
        #expect(received == [1])
    }

    @Test func identityHashing() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
    }
}

@Suite struct CombineIdentifierTests {
    final class Object {}

    @Test func freshIdentifiersAreDistinct() {
        let ids = (0..<100).map { _ in CombineIdentifier() }
        #expect(Set(ids).count == 100)
    }

    @Test func objectIdentifiersFollowTheObject() {
        let a = Object()
        let b = Object()
        #expect(CombineIdentifier(a) == CombineIdentifier(a))
        #expect(CombineIdentifier(a) != CombineIdentifier(b))
        #expect(CombineIdentifier(a) != CombineIdentifier())
    }

    @Test func classSubscribersGetAnIdentityBasedIdentifier() {
        let recorder = RecordingSubscriber<Int, Never>()
        #expect(recorder.combineIdentifier == CombineIdentifier(recorder))
    }
}
