// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

/// `NotificationCenter.publisher(for:object:)`. (OpenCombine's NotificationCenterTests do not
/// compile on this toolchain's Foundation, so these are the checks that run.)
@Suite struct NotificationCenterPublisherTests {
    static let name = Notification.Name("sluice.test.notification")

    @Test func deliversPostedNotificationsWithinDemandAndDropsTheRest() {
        let center = NotificationCenter()
        let subscriber = center.publisher(for: Self.name).record(initialDemand: .max(2))
        #expect(subscriber.subscriptionDescriptions == ["NotificationCenter Observer"])
        for index in 0..<3 { center.post(name: Self.name, object: nil, userInfo: ["index": index]) }
        #expect(subscriber.values.map { $0.userInfo?["index"] as? Int } == [0, 1])
        // The third was posted without demand: the center does not wait, so it is gone.
        subscriber.request(.max(1))
        center.post(name: Self.name, object: nil, userInfo: ["index": 3])
        #expect(subscriber.values.map { $0.userInfo?["index"] as? Int } == [0, 1, 3])
    }

    @Test func filtersByNameAndObject() {
        let center = NotificationCenter()
        let sender = NSObject()
        let subscriber = center.publisher(for: Self.name, object: sender).record()
        center.post(name: Self.name, object: NSObject())
        center.post(name: Notification.Name("other"), object: sender)
        center.post(name: Self.name, object: sender)
        #expect(subscriber.values.count == 1)
        #expect(subscriber.values.first?.object as AnyObject? === sender)
    }

    @Test func cancelStopsDeliveryAndLetsGoOfTheSubscriber() {
        final class Witness {}
        let center = NotificationCenter()
        weak var witness: Witness?
        var received = 0
        var token: AnyCancellable?
        do {
            let held = Witness()
            witness = held
            token = center.publisher(for: Self.name).sink { _ in withExtendedLifetime(held) { received += 1 } }
        }
        center.post(name: Self.name, object: nil)
        token?.cancel()
        center.post(name: Self.name, object: nil)
        #expect(received == 1)
        #expect(witness == nil)
    }

    @Test func notificationsPostedOnManyThreadsArriveOneAtATimeAndNoneIsLost() {
        let center = NotificationCenter()
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var count = 0
            var inside = 0
            var overlapped = false
        }
        let tally = Tally()
        let token = center.publisher(for: Self.name).sink { _ in
            tally.lock.withLock {
                tally.inside += 1
                if tally.inside > 1 { tally.overlapped = true }
            }
            tally.lock.withLock {
                tally.count += 1
                tally.inside -= 1
            }
        }
        onThreads(4) { _ in
            for _ in 0..<250 { center.post(name: Self.name, object: nil) }
        }
        tally.lock.withLock {
            #expect(tally.count == 1_000)
            #expect(!tally.overlapped)
        }
        withExtendedLifetime(token) {}
    }
}
