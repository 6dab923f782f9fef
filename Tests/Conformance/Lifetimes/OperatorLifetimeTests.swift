// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

// The lifetime law (Support/LifetimeLaws.swift) for every operator over one upstream, with an
// object captured by each closure the operator takes. Operators that re-subscribe on failure
// (`retry`, `catch`) are checked on the endings after which they are done.

@Suite struct OneToOneOperatorLifetimeTests {
    @Test func map() {
        LifetimeLaws.check { upstream, captured in
            upstream.map {
                captured.touch(); return $0 * 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryMap {
                captured.touch(); return $0 * 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.map {
                captured.touch(); return $0
            }.map { $0 + 1 }
        }
    }

    @Test func filter() {
        LifetimeLaws.check { upstream, captured in
            upstream.filter {
                captured.touch(); return $0 > 1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryFilter {
                captured.touch(); return $0 > 1
            }
        }
    }

    @Test func compactMap() {
        LifetimeLaws.check { upstream, captured in
            upstream.compactMap {
                captured.touch(); return $0
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryCompactMap {
                captured.touch(); return $0
            }
        }
    }

    @Test func scan() {
        LifetimeLaws.check { upstream, captured in
            upstream.scan(0) {
                captured.touch(); return $0 + $1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryScan(0) {
                captured.touch(); return $0 + $1
            }
        }
    }

    @Test func removeDuplicates() {
        LifetimeLaws.check { upstream, captured in
            upstream.removeDuplicates {
                captured.touch(); return $0 == $1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryRemoveDuplicates {
                captured.touch(); return $0 == $1
            }
        }
    }

    @Test func dropWhileAndPrefixWhile() {
        LifetimeLaws.check { upstream, captured in
            upstream.drop {
                captured.touch(); return $0 < 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryDrop {
                captured.touch(); return $0 < 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.prefix {
                captured.touch(); return $0 < 3
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryPrefix {
                captured.touch(); return $0 < 3
            }
        }
    }

    @Test func mapErrorAndReplacements() {
        LifetimeLaws.check { upstream, captured in
            upstream.mapError { error -> TestError in
                captured.touch(); return error
            }
        }
        LifetimeLaws.check { upstream, _ in upstream.map { Optional($0) }.replaceNil(with: 0) }
        LifetimeLaws.check { upstream, _ in upstream.replaceError(with: 0).setFailureType(to: TestError.self) }
        LifetimeLaws.check { upstream, _ in upstream.replaceError(with: 0) }
        LifetimeLaws.check { upstream, _ in upstream.replaceEmpty(with: 0) }
        LifetimeLaws.check(endings: [.cancel, .cancelInsideReceive, .finished]) { upstream, _ in
            upstream.assertNoFailure()
        }
    }

    @Test func keyPaths() {
        LifetimeLaws.check { upstream, _ in upstream.map(\.self) }
        LifetimeLaws.check { upstream, _ in upstream.map(\.self, \.description) }
        LifetimeLaws.check { upstream, _ in upstream.map(\.self, \.description, \.bitWidth) }
    }

    @Test func dropAndOutput() {
        LifetimeLaws.check { upstream, _ in upstream.dropFirst(1) }
        LifetimeLaws.check { upstream, _ in upstream.output(at: 1) }
        LifetimeLaws.check { upstream, _ in upstream.output(in: 0..<2) }
        LifetimeLaws.check { upstream, _ in upstream.prefix(2) }
    }

    @Test func handleEventsAndDebugging() {
        LifetimeLaws.check { upstream, captured in
            upstream.handleEvents(
                receiveSubscription: { _ in captured.touch() }, receiveOutput: { _ in captured.touch() },
                receiveCompletion: { _ in captured.touch() }, receiveCancel: { captured.touch() },
                receiveRequest: { _ in captured.touch() })
        }
        LifetimeLaws.check { upstream, captured in
            upstream.breakpoint(
                receiveSubscription: { _ in
                    captured.touch(); return false
                },
                receiveOutput: { _ in
                    captured.touch(); return false
                })
        }
        LifetimeLaws.check { upstream, captured in
            upstream.print("lifetime", to: CapturingStream(captured: captured))
        }
    }
}

/// A `print` destination that captures an object.
struct CapturingStream: TextOutputStream {
    let captured: Captured
    mutating func write(_ string: String) { captured.touch() }
}

@Suite struct FoldOperatorLifetimeTests {
    @Test func reduceAndCollect() {
        LifetimeLaws.check { upstream, captured in
            upstream.reduce(0) {
                captured.touch(); return $0 + $1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryReduce(0) {
                captured.touch(); return $0 + $1
            }
        }
        LifetimeLaws.check { upstream, _ in upstream.collect() }
        LifetimeLaws.check { upstream, _ in upstream.collect(2) }
        LifetimeLaws.check { upstream, _ in upstream.count() }
        LifetimeLaws.check { upstream, _ in upstream.ignoreOutput() }
    }

    @Test func comparisons() {
        LifetimeLaws.check { upstream, captured in
            upstream.min {
                captured.touch(); return $0 < $1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryMax {
                captured.touch(); return $0 < $1
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.allSatisfy {
                captured.touch(); return $0 > 0
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryAllSatisfy {
                captured.touch(); return $0 > 0
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.contains {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryContains {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, _ in upstream.contains(5) }
    }

    @Test func firstAndLast() {
        LifetimeLaws.check { upstream, captured in
            upstream.first {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryFirst {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.last {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryLast {
                captured.touch(); return $0 == 2
            }
        }
        LifetimeLaws.check { upstream, _ in upstream.first() }
        LifetimeLaws.check { upstream, _ in upstream.last() }
    }
}

@Suite struct RecoveringOperatorLifetimeTests {
    @Test func catchReleasesItsHandlerAndTheFallback() {
        LifetimeLaws.check { upstream, captured in
            upstream.catch { _ in
                captured.touch(); return Just(0)
            }
        }
        LifetimeLaws.check { upstream, captured in
            upstream.tryCatch { _ -> Just<Int> in
                captured.touch(); return Just(0)
            }
        }
        let fallback = PassthroughSubject<Int, Never>()
        LifetimeLaws.check(endings: [.cancel, .cancelInsideReceive, .finished]) { upstream, captured in
            upstream.catch { _ in
                captured.touch(); return fallback
            }
        }
    }

    @Test func retry() {
        LifetimeLaws.check(endings: [.cancel, .cancelInsideReceive, .finished]) { upstream, _ in upstream.retry(3) }
    }

    @Test func buffer() {
        LifetimeLaws.check { upstream, _ in upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest) }
        LifetimeLaws.check { upstream, _ in upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest) }
    }
}

@Suite struct UntilOutputOperatorLifetimeTests {
    @Test func prefixAndDropUntilOutput() {
        let other = PassthroughSubject<Int, TestError>()
        LifetimeLaws.check { upstream, _ in upstream.prefix(untilOutputFrom: other) }
        LifetimeLaws.check { upstream, _ in upstream.drop(untilOutputFrom: other) }
    }

    @Test func theOtherPublisherEndsItToo() {
        // The trigger fires: the stream ends from the other side, and both subscriptions go.
        for makeOperator in [0, 1] {
            let upstream = TestPublisher<Int, TestError>(keepsLastSubscriber: false)
            let other = PassthroughSubject<Int, TestError>()
            weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
            do {
                let subscriber = HoldingSubscriber<Int, TestError>()
                weakSubscriber = subscriber
                if makeOperator == 0 {
                    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
                } else {
                    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
                }
            }
            upstream.send(1)
            other.send(0)
            upstream.send(completion: .finished)
            #expect(weakSubscriber == nil)
        }
    }
}
