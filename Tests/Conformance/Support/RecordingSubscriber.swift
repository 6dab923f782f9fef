// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

/// A subscriber that records every event it receives, with a scriptable demand.
///
/// - `initialDemand`: requested as soon as the subscription arrives (`nil`: request nothing).
/// - `demandPerValue`: what `receive(_:)` returns for each value.
/// - `cancelAfterValues`: cancel from inside `receive(_:)` when this many values have arrived.
/// - `onValue`: runs inside `receive(_:)`, for re-entrant calls (a `request` from inside, say).
///
/// It lets go of its subscription when it completes or cancels, as `Sink` does, so tests can
/// check that nothing else keeps the subscription alive.
final class RecordingSubscriber<Input, Failure: Error>: Subscriber {
    enum Event: CustomStringConvertible {
        case subscription
        case value(Input)
        case finished
        case failure(Failure)

        var description: String {
            switch self {
            case .subscription: "subscription"
            case .value(let value): "value(\(value))"
            case .finished: "finished"
            case .failure(let error): "failure(\(error))"
            }
        }
    }

    private(set) var events: [Event] = []
    private(set) var subscription: (any Subscription)?
    /// The subscription received first, kept weakly: to check that it is released.
    private(set) weak var firstSubscription: AnyObject?
    private(set) var subscriptionDescriptions: [String] = []

    private let initialDemand: Subscribers.Demand?
    private let demandPerValue: (Input) -> Subscribers.Demand
    private let cancelAfterValues: Int?
    var onValue: ((Input) -> Void)?

    init(
        initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: @escaping (Input) -> Subscribers.Demand = { _ in .none },
        cancelAfterValues: Int? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.cancelAfterValues = cancelAfterValues
    }

    /// A subscriber that returns the same demand for every value.
    convenience init(initialDemand: Subscribers.Demand?, demandPerValue: Subscribers.Demand) {
        self.init(initialDemand: initialDemand, demandPerValue: { _ in demandPerValue })
    }

    func receive(subscription: any Subscription) {
        events.append(.subscription)
        subscriptionDescriptions.append(String(describing: subscription))
        if self.subscription == nil && firstSubscription == nil {
            self.subscription = subscription
            firstSubscription = subscription as AnyObject
        }
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append(.value(input))
        onValue?(input)
        if let cancelAfterValues, values.count == cancelAfterValues {
            cancel()
            return .none
        }
        return demandPerValue(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: events.append(.finished)
        case .failure(let error): events.append(.failure(error))
        }
        subscription = nil
    }

    func request(_ demand: Subscribers.Demand) { subscription?.request(demand) }

    func cancel() {
        let current = subscription
        subscription = nil
        current?.cancel()
    }

    var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    var completions: [Subscribers.Completion<Failure>] {
        events.compactMap {
            switch $0 {
            case .finished: .finished
            case .failure(let error): .failure(error)
            default: nil
            }
        }
    }

    /// The events as text: failures compare by description, which works for `any Error` too.
    var trace: [String] { events.map(\.description) }
}

extension RecordingSubscriber.Event: Equatable where Input: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.subscription, .subscription), (.finished, .finished): true
        case (.value(let a), .value(let b)): a == b
        case (.failure(let a), .failure(let b)): String(describing: a) == String(describing: b)
        default: false
        }
    }
}

extension Publisher {
    /// Subscribes a new recording subscriber and returns it.
    func record(
        initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: @escaping (Output) -> Subscribers.Demand = { _ in .none },
        cancelAfterValues: Int? = nil
    ) -> RecordingSubscriber<Output, Failure> {
        let recorder = RecordingSubscriber<Output, Failure>(
            initialDemand: initialDemand, demandPerValue: demandPerValue, cancelAfterValues: cancelAfterValues)
        subscribe(recorder)
        return recorder
    }
}

extension Publisher {
    /// Subscribes a new recording subscriber that returns the same demand for every value.
    func record(initialDemand: Subscribers.Demand?, demandPerValue: Subscribers.Demand) -> RecordingSubscriber<
        Output, Failure
    > {
        record(initialDemand: initialDemand, demandPerValue: { _ in demandPerValue })
    }
}
