// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

// The lifetime law for the operators with more than one upstream, and for multicasting. The
// law's upstream is the test publisher; the other upstreams end by themselves (or are subjects the
// test ends), so that the stream is over when the law's upstream is.

@Suite struct FanInLifetimeTests {
    @Test func merge() {
        LifetimeLaws.check { upstream, _ in upstream.merge(with: Empty()) }
        LifetimeLaws.check { upstream, _ in upstream.merge(with: Empty(), Empty()) }
        LifetimeLaws.check { upstream, _ in
            Publishers.MergeMany([upstream.eraseToAnyPublisher(), Empty().eraseToAnyPublisher()])
        }
    }

    @Test func zipAndCombineLatest() {
        let others = Publishers.Sequence<[Int], TestError>(sequence: [10, 20, 30, 40])
        LifetimeLaws.check { upstream, _ in upstream.zip(others) }
        LifetimeLaws.check { upstream, captured in
            upstream.zip(others) {
                captured.touch(); return $0 + $1
            }
        }
        LifetimeLaws.check { upstream, _ in upstream.zip(others, others) }
        LifetimeLaws.check { upstream, _ in upstream.combineLatest(Just(1).setFailureType(to: TestError.self)) }
        LifetimeLaws.check { upstream, captured in
            upstream.combineLatest(Just(1).setFailureType(to: TestError.self)) {
                captured.touch(); return $0 + $1
            }
        }
    }

    @Test func flatMap() {
        LifetimeLaws.check { upstream, captured in
            upstream.flatMap {
                captured.touch(); return Just($0).setFailureType(to: TestError.self)
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.flatMap(maxPublishers: .max(1)) { value in
                captured.touch(); return [value, value].publisher.setFailureType(to: TestError.self)
            }
        }
        // Inners that are still live when the stream is cancelled or fails are cancelled and let go.
        let inner = PassthroughSubject<Int, TestError>()
        LifetimeLaws.check(endings: [.cancel, .cancelInsideReceive, .failure]) { upstream, captured in
            upstream.flatMap { value in
                captured.touch(); return inner.prepend(value)
            }
        }
    }

    @Test func switchToLatest() {
        LifetimeLaws.check { upstream, captured in
            upstream.map { value in
                captured.touch(); return Just(value).setFailureType(to: TestError.self)
            }.switchToLatest()
        }
        let inner = PassthroughSubject<Int, TestError>()
        LifetimeLaws.check(endings: [.cancel, .cancelInsideReceive, .failure]) { upstream, _ in
            upstream.map { inner.prepend($0) }.switchToLatest()
        }
    }

    @Test func concatenate() {
        LifetimeLaws.check { upstream, _ in upstream.append(4, 5) }
        LifetimeLaws.check { upstream, _ in upstream.prepend(0) }
        LifetimeLaws.check { upstream, _ in Just(0).setFailureType(to: TestError.self).append(upstream) }
        LifetimeLaws.check { upstream, _ in Publishers.Concatenate(prefix: upstream, suffix: Empty()) }
    }
}

@Suite struct MulticastLifetimeTests {
    @Test func shareAndAutoconnect() {
        LifetimeLaws.check { upstream, _ in upstream.share() }
        LifetimeLaws.check { upstream, _ in upstream.replaceError(with: 0).makeConnectable().autoconnect() }
        LifetimeLaws.check { upstream, captured in
            upstream.multicast {
                captured.touch(); return PassthroughSubject<Int, TestError>()
            }.autoconnect()
        }
        LifetimeLaws.check { upstream, _ in
            upstream.multicast(subject: PassthroughSubject<Int, TestError>()).autoconnect()
        }
    }

    @Test func aSubscriberThatLeavesAConnectedMulticastIsFreed() {
        let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
        let multicast = upstream.multicast(subject: PassthroughSubject<Int, TestError>())
        let connection = multicast.connect()
        let stays = multicast.record()
        weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
        do {
            let subscriber = HoldingSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            multicast.subscribe(subscriber)
        }
        upstream.send(1)
        weakSubscriber?.subscription?.cancel()
        #expect(weakSubscriber == nil)
        upstream.send(2)
        #expect(stays.values == [1, 2])
        connection.cancel()
    }
}
