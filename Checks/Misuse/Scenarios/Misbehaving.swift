// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// A custom publisher that breaks Combine's rules the way hand-written publishers do.
struct Misbehaving: Publisher {
    typealias Output = Int
    typealias Failure = MisuseError

    enum Kind: String, CaseIterable {
        /// A value before `receive(subscription:)`.
        case valueBeforeSubscription
        /// Five values and a completion on the first request, whatever it asked for.
        case ignoresDemand
        /// Two subscriptions, then a value and a completion on the first request.
        case twoSubscriptions
        /// A value, a completion, and a second completion.
        case twoCompletions
        /// A value, a completion, and another value.
        case valueAfterCompletion
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == MisuseError {
        let subscription = Script(kind: kind, subscriber: AnySubscriber(subscriber))
        switch kind {
        case .valueBeforeSubscription:
            _ = subscriber.receive(0)
            subscriber.receive(subscription: subscription)
        case .twoSubscriptions:
            subscriber.receive(subscription: subscription)
            subscriber.receive(subscription: Script(kind: kind, subscriber: nil))
        default:
            subscriber.receive(subscription: subscription)
        }
    }

    /// Plays the kind's script on the first request; ignores cancels, as a careless publisher does.
    final class Script: Subscription {
        let kind: Kind
        var subscriber: AnySubscriber<Int, MisuseError>?

        init(kind: Kind, subscriber: AnySubscriber<Int, MisuseError>?) {
            self.kind = kind
            self.subscriber = subscriber
        }

        func request(_ demand: Subscribers.Demand) {
            guard let subscriber else { return }
            self.subscriber = nil
            switch kind {
            case .ignoresDemand:
                for value in 1...5 { _ = subscriber.receive(value) }
                subscriber.receive(completion: .finished)
            case .valueBeforeSubscription, .twoSubscriptions:
                _ = subscriber.receive(1)
                subscriber.receive(completion: .finished)
            case .twoCompletions:
                _ = subscriber.receive(1)
                subscriber.receive(completion: .finished)
                subscriber.receive(completion: .failure(MisuseError()))
            case .valueAfterCompletion:
                _ = subscriber.receive(1)
                subscriber.receive(completion: .finished)
                _ = subscriber.receive(2)
            }
        }

        func cancel() {}
    }
}

/// Every operator family, each fed by a misbehaving publisher and read by a recorder that asks for
/// one value at a time: the stream that reaches the recorder keeps Combine's contract (nothing
/// after the completion, one completion, nothing beyond demand), or the operator traps with an API
/// violation where Combine's counts demand and traps on an overrun.
func misbehavingPublishers() -> [MisuseScenario] {
    typealias Source = Misbehaving
    typealias Erased = AnyPublisher<Int, MisuseError>
    var families: [(name: String, apply: (Source) -> Erased)] = []
    func add(_ name: String, _ apply: @escaping (Source) -> Erased) { families.append((name, apply)) }
    add("map", { $0.map { $0 * 2 }.eraseToAnyPublisher() })
    add("filter", { $0.filter { _ in true }.eraseToAnyPublisher() })
    add("compactMap", { $0.compactMap { $0 }.eraseToAnyPublisher() })
    add("scan", { $0.scan(0, +).eraseToAnyPublisher() })
    add("removeDuplicates", { $0.removeDuplicates().eraseToAnyPublisher() })
    add("dropFirst", { $0.dropFirst(0).eraseToAnyPublisher() })
    add("prefix", { $0.prefix(3).eraseToAnyPublisher() })
    add("collect", { $0.collect().map { $0.count }.eraseToAnyPublisher() })
    add("collect(2)", { $0.collect(2).map { $0.count }.eraseToAnyPublisher() })
    add("reduce", { $0.reduce(0, +).eraseToAnyPublisher() })
    add("count", { $0.count().eraseToAnyPublisher() })
    add("last", { $0.last().eraseToAnyPublisher() })
    add("ignoreOutput", { $0.ignoreOutput().collect().map { $0.count }.eraseToAnyPublisher() })
    add("replaceEmpty", { $0.replaceEmpty(with: 0).eraseToAnyPublisher() })
    add("mapError", { $0.mapError { $0 }.eraseToAnyPublisher() })
    add("catch", { $0.catch { _ in Just(0) }.setFailureType(to: MisuseError.self).eraseToAnyPublisher() })
    add("retry", { $0.retry(1).eraseToAnyPublisher() })
    add("replaceError", { $0.replaceError(with: 0).setFailureType(to: MisuseError.self).eraseToAnyPublisher() })
    add("flatMap", { $0.flatMap { Just($0).setFailureType(to: MisuseError.self) }.eraseToAnyPublisher() })
    add(
        "flatMap (as the inner)",
        { source in Just(0).setFailureType(to: MisuseError.self).flatMap { _ in source }.eraseToAnyPublisher() })
    add("merge", { $0.merge(with: Empty()).eraseToAnyPublisher() })
    add("zip", { $0.zip(Just(0).setFailureType(to: MisuseError.self)).map { $0.0 }.eraseToAnyPublisher() })
    add(
        "combineLatest",
        { $0.combineLatest(Just(0).setFailureType(to: MisuseError.self)).map { $0.0 }.eraseToAnyPublisher() })
    add(
        "switchToLatest",
        { source in Just(source).setFailureType(to: MisuseError.self).switchToLatest().eraseToAnyPublisher() })
    add(
        "prefix(untilOutputFrom:)",
        { $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).eraseToAnyPublisher() })
    add(
        "drop(untilOutputFrom:)",
        { $0.drop(untilOutputFrom: Just(()).setFailureType(to: MisuseError.self)).eraseToAnyPublisher() })
    add("append", { $0.append(Just(9).setFailureType(to: MisuseError.self)).eraseToAnyPublisher() })
    add("prepend", { $0.prepend(0).eraseToAnyPublisher() })
    add("share", { $0.share().eraseToAnyPublisher() })
    add("multicast", { $0.multicast { PassthroughSubject() }.autoconnect().eraseToAnyPublisher() })
    add("buffer", { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher() })
    add("receive(on:)", { $0.receive(on: ImmediateScheduler.shared).eraseToAnyPublisher() })
    add("subscribe(on:)", { $0.subscribe(on: ImmediateScheduler.shared).eraseToAnyPublisher() })
    add("handleEvents", { $0.handleEvents(receiveOutput: { _ in }).eraseToAnyPublisher() })
    add("delay", { $0.delay(for: 0, scheduler: ImmediateScheduler.shared).eraseToAnyPublisher() })
    add("debounce", { $0.debounce(for: 0, scheduler: ImmediateScheduler.shared).eraseToAnyPublisher() })
    add("throttle", { $0.throttle(for: 0, scheduler: ImmediateScheduler.shared, latest: true).eraseToAnyPublisher() })
    add("output(at:)", { $0.output(at: 1).eraseToAnyPublisher() })
    add("allSatisfy", { $0.allSatisfy { $0 >= 0 }.map { $0 ? 1 : 0 }.eraseToAnyPublisher() })
    add("first", { $0.first().eraseToAnyPublisher() })
    /// The operators that count demand and trap when their source overruns it, as Combine's do.
    let trapsOnOverrun: [String: String] = [
        "catch": "API violation: Catch received a value while downstream had no outstanding demand",
        "retry": "API violation: Retry received a value while downstream had no outstanding demand",
        "replaceError":
            "API violation: ReplaceError received a value from upstream while downstream had no outstanding demand",
        "drop(untilOutputFrom:)":
            "API violation: DropUntilOutput received a value from upstream while downstream had no outstanding demand",
        "switchToLatest":
            "API violation: SwitchToLatest received a value from its inner publisher while downstream had no outstanding demand",
    ]
    /// Stages that hand upstream's subscription to downstream, as Combine's do: what upstream sends
    /// passes on as it came, a second completion and a value after the completion included.
    let passThrough: Set<String> = ["map", "filter", "compactMap", "scan", "mapError"]
    /// Operators that pass demand upstream without counting it, as Combine's do: values an upstream
    /// sends beyond demand pass on (the others hold the contract, or trap as Combine's do).
    let forwardsOverrun: Set<String> = passThrough.union([
        "removeDuplicates", "dropFirst", "prefix", "collect(2)", "replaceEmpty", "prefix(untilOutputFrom:)",
        "receive(on:)", "subscribe(on:)", "handleEvents", "delay",
    ])
    var scenarios: [MisuseScenario] = []
    for kind in Misbehaving.Kind.allCases where kind != .valueBeforeSubscription {
        for family in families {
            // Combine's drop(untilOutputFrom:) counts demand past the end too: a value after the
            // completion finds none and traps (OpenCombine's testCrashesWhenReceivesInputAfterCancel).
            let trap =
                kind == .ignoresDemand || (kind == .valueAfterCompletion && family.name == "drop(untilOutputFrom:)")
                ? trapsOnOverrun[family.name] : nil
            var tolerated: Set<String> = []
            if kind == .ignoresDemand, forwardsOverrun.contains(family.name) {
                tolerated.insert(Recorder<Int, MisuseError>.beyondDemand)
            }
            if passThrough.contains(family.name) {
                tolerated.formUnion([
                    Recorder<Int, MisuseError>.afterCompletion, Recorder<Int, MisuseError>.secondCompletion,
                    Recorder<Int, MisuseError>.beyondDemand,
                ])
            }
            scenarios.append(
                MisuseScenario("\(kind.rawValue) into \(family.name)", trap.map { .traps($0) } ?? .clean) {
                    let recorder = Recorder<Int, MisuseError>(initialDemand: .max(1), demandPerValue: .none)
                    family.apply(Misbehaving(kind)).subscribe(recorder)
                    expectStream(recorder, "\(kind.rawValue) into \(family.name)", tolerating: tolerated)
                    MisuseCheck.expect(
                        !recorder.values.isEmpty || recorder.isComplete, "nothing reached the subscriber")
                })
        }
    }
    return scenarios
}
