// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

// The lifetime law for the operators that work on a scheduler, on virtual time: what they have
// scheduled runs (the law's `settle`) before the law looks, since a scheduled action may hold the
// subscription until it runs. Nothing may keep the subscriber after that.

@Suite struct TimingLifetimeTests {
    /// Checks the law with a fresh virtual-time scheduler, advanced past everything after the end.
    func check<P: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ make: @escaping (TestPublisher<Int, TestError>, Captured, VirtualTimeScheduler) -> P
    ) {
        let scheduler = VirtualTimeScheduler()
        LifetimeLaws.check(
            subscribed: { scheduler.advance() }, settle: { scheduler.advance(by: .seconds(10)) },
            sourceLocation: sourceLocation
        ) { upstream, captured in
            make(upstream, captured, scheduler)
        }
    }

    @Test func receiveOnAndSubscribeOn() {
        check { upstream, _, scheduler in upstream.receive(on: scheduler) }
        // `subscribe(on:)` subscribes upstream in a scheduled action, which `subscribed` runs.
        check { upstream, _, scheduler in upstream.subscribe(on: scheduler) }
        LifetimeLaws.check { upstream, _ in upstream.receive(on: ImmediateScheduler.shared) }
        LifetimeLaws.check { upstream, _ in upstream.subscribe(on: ImmediateScheduler.shared) }
    }

    @Test func delayDebounceThrottle() {
        check { upstream, _, scheduler in upstream.delay(for: .milliseconds(5), scheduler: scheduler) }
        check { upstream, _, scheduler in upstream.debounce(for: .milliseconds(5), scheduler: scheduler) }
        check { upstream, _, scheduler in upstream.throttle(for: .milliseconds(5), scheduler: scheduler, latest: true) }
        check { upstream, _, scheduler in upstream.throttle(for: .milliseconds(5), scheduler: scheduler, latest: false)
        }
    }

    @Test func timeoutAndMeasureInterval() {
        check { upstream, _, scheduler in upstream.timeout(.milliseconds(5), scheduler: scheduler) }
        check { upstream, captured, scheduler in
            upstream.timeout(.milliseconds(5), scheduler: scheduler) {
                captured.touch(); return .oops
            }
        }
        check { upstream, _, scheduler in upstream.measureInterval(using: scheduler) }
    }

    @Test func collectByTime() {
        check { upstream, _, scheduler in upstream.collect(.byTime(scheduler, .milliseconds(5))) }
        check { upstream, _, scheduler in upstream.collect(.byTimeOrCount(scheduler, .milliseconds(5), 2)) }
    }

    /// A timer that is still pending when the stream is cancelled does not keep the subscriber
    /// until it fires.
    @Test func aPendingTimerDoesNotHoldTheSubscriberAfterACancel() {
        let scheduler = VirtualTimeScheduler()
        LifetimeLaws.check(endings: [.cancel]) { upstream, _ in upstream.delay(for: .seconds(60), scheduler: scheduler)
        }
        LifetimeLaws.check(endings: [.cancel]) { upstream, _ in
            upstream.debounce(for: .seconds(60), scheduler: scheduler)
        }
        LifetimeLaws.check(endings: [.cancel]) { upstream, _ in upstream.timeout(.seconds(60), scheduler: scheduler) }
        LifetimeLaws.check(endings: [.cancel]) { upstream, _ in upstream.collect(.byTime(scheduler, .seconds(60))) }
        LifetimeLaws.check(endings: [.cancel]) { upstream, _ in upstream.receive(on: scheduler) }
    }
}
