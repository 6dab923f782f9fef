// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

/// The test kit's contract check over the implementation's own API: every publisher, and every
/// operator over a `ContractUpstream`, keeps every rule (upstream demand as each is documented).
@Suite struct ContractSweepTests {
    /// One publisher or operator, and its check (a test runs it on one thread).
    struct Case: @unchecked Sendable, CustomTestStringConvertible {
        let name: String
        let check: () -> ContractReport

        var testDescription: String { name }
    }

    typealias Upstream = ContractUpstream<Int, Never>
    typealias Failing = ContractUpstream<Int, TestError>

    /// What an operator's upstream plays: duplicates for removeDuplicates, enough for prefix and output(in:).
    static let values = [1, 2, 2, 3, 5, 8, 8, 13]

    static func publisher<P: Publisher>(
        _ name: String, promising promises: [PublisherRule] = [], _ make: @escaping () -> P
    ) -> Case {
        Case(name: name) { checkContract(of: make, promising: promises) }
    }

    static func subject<S: Subject>(
        _ name: String, promising promises: [PublisherRule] = [], _ make: @escaping () -> S
    ) -> Case where S.Output == Int {
        Case(name: name) { checkContract(ofSubject: make, sending: values, promising: promises) }
    }

    /// What a cold publisher that ends promises.
    static let coldAndFinite: [PublisherRule] = [.finishes, .isCold]

    static func passing<P: Publisher>(_ name: String, _ make: @escaping (Upstream) -> P) -> Case {
        Case(name: name) { checkContract(ofOperator: make, feeding: values) }
    }

    static func free<P: Publisher>(_ name: String, _ make: @escaping (Upstream) -> P) -> Case {
        Case(name: name) { checkContract(ofOperator: make, feeding: values, upstreamDemand: .unconstrained) }
    }

    static func failing<P: Publisher>(
        _ name: String, _ demand: UpstreamDemand = .withinDownstreamDemand,
        _ make: @escaping (Failing) -> P
    ) -> Case {
        Case(name: name) {
            checkContract(ofOperator: make, feeding: values, failingWith: TestError.oops, upstreamDemand: demand)
        }
    }

    static let publishers: [Case] = [
        publisher("Just", promising: coldAndFinite) { Just(1) },
        publisher("Empty", promising: coldAndFinite) { Empty<Int, Never>() },
        publisher("Empty(completeImmediately: false)") { Empty<Int, Never>(completeImmediately: false) },
        publisher("Fail", promising: coldAndFinite) { Fail<Int, TestError>(error: .oops) },
        publisher("Range.publisher", promising: coldAndFinite) { (0..<1_000).publisher },
        publisher("Array.publisher", promising: coldAndFinite) { Array(0..<1_000).publisher },
        publisher("Optional.Publisher", promising: coldAndFinite) { Optional(1).publisher },
        publisher("Result.Publisher", promising: coldAndFinite) { Result<Int, TestError>.success(1).publisher },
        publisher("Result.Publisher failure", promising: coldAndFinite) {
            Result<Int, TestError>.failure(.oops).publisher
        },
        publisher("Deferred", promising: coldAndFinite) { Deferred { Just(1) } },
        publisher("Future", promising: [.finishes, .replaysLatest]) { Future<Int, Never> { $0(.success(1)) } },
        publisher("Record", promising: coldAndFinite) {
            Record<Int, TestError>(output: [1, 2, 3], completion: .failure(.oops))
        },
        publisher("PassthroughSubject") { PassthroughSubject<Int, Never>() },
        publisher("CurrentValueSubject", promising: [.replaysLatest]) { CurrentValueSubject<Int, Never>(1) },
        subject("PassthroughSubject sent values", promising: [.finishes, .servesSubscribersInOrder]) {
            PassthroughSubject<Int, Never>()
        },
        subject("CurrentValueSubject sent values", promising: [.finishes, .replaysLatest, .servesSubscribersInOrder]) {
            CurrentValueSubject<Int, Never>(0)
        },
        publisher("AnyPublisher") { (0..<100).publisher.eraseToAnyPublisher() },
        publisher("sequence.map.filter", promising: coldAndFinite) {
            (0..<1_000).publisher.map { $0 * 2 }.filter { $0 % 3 == 0 }
        },
        publisher("sequence.flatMap", promising: coldAndFinite) { (0..<100).publisher.flatMap { [$0, $0].publisher } },
        publisher("sequence.merge", promising: coldAndFinite) { (0..<100).publisher.merge(with: (0..<100).publisher) },
        publisher("sequence.zip", promising: coldAndFinite) { (0..<100).publisher.zip((0..<100).publisher) },
        publisher("sequence.combineLatest") { (0..<100).publisher.combineLatest((0..<100).publisher) },
        publisher("sequence.switchToLatest") { (0..<100).publisher.map { [$0, $0].publisher }.switchToLatest() },
        publisher("sequence.append", promising: coldAndFinite) { (0..<100).publisher.append(100..<200) },
        publisher("Publishers.Concatenate", promising: coldAndFinite) {
            Publishers.Concatenate(prefix: Just(0), suffix: (1..<100).publisher)
        },
        publisher("Publishers.MergeMany", promising: coldAndFinite) {
            Publishers.MergeMany((0..<4).map { _ in (0..<25).publisher.map { $0 * 4 } })
        },
    ]

    static let operators: [Case] = [
        passing("map") { $0.map { $0 * 2 } },
        passing("map(keyPath)") { $0.map(\.bitWidth) },
        passing("tryMap") { $0.tryMap { $0 * 2 } },
        passing("filter") { $0.filter { $0 % 2 == 0 } },
        passing("tryFilter") { $0.tryFilter { $0 % 2 == 0 } },
        passing("compactMap") { $0.compactMap { $0 % 2 == 0 ? $0 : nil } },
        passing("tryCompactMap") { $0.tryCompactMap { $0 % 2 == 0 ? $0 : nil } },
        passing("scan") { $0.scan(0, +) },
        passing("tryScan") { $0.tryScan(0, +) },
        passing("removeDuplicates") { $0.removeDuplicates() },
        passing("tryRemoveDuplicates") { $0.tryRemoveDuplicates { $0 == $1 } },
        passing("replaceNil") { $0.map { $0 % 2 == 0 ? $0 : nil }.replaceNil(with: 0) },
        passing("setFailureType") { $0.setFailureType(to: TestError.self) },
        passing("prefix") { $0.prefix(3) },
        passing("prefix(while:)") { $0.prefix { $0 < 5 } },
        passing("tryPrefix(while:)") { $0.tryPrefix { $0 < 5 } },
        passing("drop(while:)") { $0.drop { $0 < 3 } },
        passing("tryDrop(while:)") { $0.tryDrop { $0 < 3 } },
        passing("output(at:)") { $0.output(at: 2) },
        passing("output(in:)") { $0.output(in: 1...3) },
        passing("handleEvents") { $0.handleEvents(receiveOutput: { _ in }) },
        passing("breakpoint") { $0.breakpoint() },
        passing("eraseToAnyPublisher") { $0.eraseToAnyPublisher() },
        passing("receive(on: ImmediateScheduler)") { $0.receive(on: ImmediateScheduler.shared) },
        passing("subscribe(on: ImmediateScheduler)") { $0.subscribe(on: ImmediateScheduler.shared) },
        passing("append") { $0.append(21, 34) },
        passing("prepend") { $0.prepend(0) },
        // Documented to ask each upstream for one value at a time, and hold it until demand comes.
        free("merge(with:)") { $0.merge(with: Just(0)) },
        passing("zip") { $0.zip((0..<100).publisher) },
        passing("combineLatest") { $0.combineLatest(Just(0)) },
        passing("assertNoFailure") { $0.setFailureType(to: TestError.self).assertNoFailure() },
        passing("encode.decode") {
            $0.map { [$0] }.encode(encoder: JSONEncoder()).decode(type: [Int].self, decoder: JSONDecoder())
        },
        free("flatMap") { $0.flatMap { Just($0) } },
        free("flatMap(maxPublishers: .max(1))") { $0.flatMap(maxPublishers: .max(1)) { [$0, $0].publisher } },
        free("switchToLatest") { $0.map { Just($0) }.switchToLatest() },
        free("collect") { $0.collect() },
        free("collect(2)") { $0.collect(2) },
        free("reduce") { $0.reduce(0, +) },
        free("tryReduce") { $0.tryReduce(0, +) },
        free("count") { $0.count() },
        free("min") { $0.min() },
        free("max") { $0.max() },
        free("contains") { $0.contains(5) },
        free("allSatisfy") { $0.allSatisfy { $0 > 0 } },
        free("ignoreOutput") { $0.ignoreOutput() },
        free("first") { $0.first() },
        free("first(where:)") { $0.first { $0 > 2 } },
        free("last") { $0.last() },
        free("last(where:)") { $0.last { $0 < 5 } },
        free("dropFirst") { $0.dropFirst(2) },
        free("buffer") { $0.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest) },
        free("share") { $0.share() },
        free("multicast.autoconnect") { $0.multicast { PassthroughSubject() }.autoconnect() },
        free("delay(ImmediateScheduler)") { $0.delay(for: .zero, scheduler: ImmediateScheduler.shared) },
        free("measureInterval(ImmediateScheduler)") { $0.measureInterval(using: ImmediateScheduler.shared) },
        failing("catch") { $0.catch { _ in Just(0) } },
        failing("tryCatch") { $0.tryCatch { _ in Just(0) } },
        failing("retry") { $0.retry(1) },
        failing("replaceError") { $0.replaceError(with: 0) },
        failing("mapError") { $0.mapError { _ in TestError.other } },
        failing("failing map.filter") { $0.map { $0 + 1 }.filter { $0 > 2 } },
        failing("failing collect", .unconstrained) { $0.collect() },
    ]

    /// Publishers and operators that deliver later, on a dispatch queue.
    static let laterPublishers: [Case] = [
        Case(name: "sequence.receive(on: DispatchQueue)") {
            let queue = DispatchQueue(label: "ContractSweepTests")
            return checkContract(
                of: { (0..<100).publisher.receive(on: queue) }, delivering: .asynchronous(within: 0.1),
                promising: coldAndFinite)
        },
        Case(name: "receive(on: DispatchQueue)") {
            let queue = DispatchQueue(label: "ContractSweepTests")
            return checkContract(
                ofOperator: { $0.receive(on: queue) }, feeding: values, delivering: .asynchronous(within: 0.1))
        },
        Case(name: "subscribe(on: DispatchQueue)") {
            let queue = DispatchQueue(label: "ContractSweepTests")
            return checkContract(
                ofOperator: { $0.subscribe(on: queue) }, feeding: values, delivering: .asynchronous(within: 0.1))
        },
        Case(name: "delay(DispatchQueue)") {
            let queue = DispatchQueue(label: "ContractSweepTests")
            return checkContract(
                ofOperator: { $0.delay(for: .milliseconds(1), scheduler: queue) }, feeding: values,
                delivering: .asynchronous(within: 0.1), upstreamDemand: .unconstrained)
        },
    ]

    /// SluiceExt's publishers (CombineExt's API).
    static let extensionPublishers: [Case] = [
        publisher("ReplaySubject", promising: [.replaysLatest]) {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            subject.send(1)
            return subject
        },
        subject("ReplaySubject sent values", promising: [.finishes, .replaysLatest, .servesSubscribersInOrder]) {
            ReplaySubject<Int, Never>(bufferSize: 1)
        },
        publisher("PassthroughRelay") { PassthroughRelay<Int>() },
        publisher("CurrentValueRelay", promising: [.replaysLatest]) { CurrentValueRelay(1) },
        publisher("AnyPublisher.create", promising: coldAndFinite) {
            AnyPublisher<Int, Never>.create { subscriber in
                for value in 0..<100 { subscriber.send(value) }
                subscriber.send(completion: .finished)
                return AnyCancellable {}
            }
        },
        publisher("Collection.merge", promising: coldAndFinite) { [Just(1), Just(2), Just(3)].merge() },
        publisher("Collection.zip", promising: coldAndFinite) { [(0..<9).publisher, (0..<9).publisher].zip() },
        publisher("Collection.combineLatest", promising: coldAndFinite) { [Just(1), Just(2)].combineLatest() },
        publisher("Collection.amb", promising: coldAndFinite) { [(0..<9).publisher, (0..<9).publisher].amb() },
        publisher("Collection.flatMapBatches", promising: coldAndFinite) {
            [Just(1), Just(2), Just(3)].flatMapBatches(of: 2)
        },
        publisher("sequence.flatMapLatest", promising: coldAndFinite) {
            (0..<100).publisher.flatMapLatest { [$0, $0].publisher }
        },
        publisher("sequence.flatMapFirst", promising: coldAndFinite) {
            (0..<100).publisher.flatMapFirst { [$0, $0].publisher }
        },
    ]

    /// SluiceExt's operators (CombineExt's API), upstream demand as each is documented.
    static let extensionOperators: [Case] = [
        passing("mapToValue") { $0.mapToValue(0) },
        passing("mapToVoid") { $0.mapToVoid() },
        passing("enumerated") { $0.enumerated() },
        passing("toggle") { $0.map { $0 > 2 }.toggle() },
        passing("mapMany") { $0.map { [$0, $0] }.mapMany { $0 * 2 } },
        passing("filterMany") { $0.map { [$0, $0 + 1] }.filterMany { $0 % 2 == 0 } },
        passing("removeAllDuplicates") { $0.removeAllDuplicates() },
        passing("prefix(while:behavior:)") { $0.prefix(while: { $0 < 5 }, behavior: .inclusive) },

        passing("withLatestFrom") { $0.withLatestFrom(Just(0)) { $0 + $1 } },
        passing("amb") { $0.amb(Empty<Int, Never>(completeImmediately: false)) },
        passing("materialize") { $0.materialize() },
        passing("materialize.dematerialize") { $0.materialize().dematerialize() },
        passing("materialize.values") { $0.materialize().values() },
        passing("nwise") { $0.nwise(2) },
        passing("pairwise") { $0.pairwise() },
        // Built on ignoreOutput, which asks upstream for everything.
        free("ignoreOutput(setOutputType:)") { $0.ignoreOutput(setOutputType: String.self) },
        free("zip(with:)") { $0.zip(with: (0..<100).publisher) },
        free("combineLatest(with:)") { $0.combineLatest(with: Just(0)) },
        free("share(replay:)") { $0.share(replay: 1) },
        free("partition") { $0.partition { $0 % 2 == 0 }.matches },
        free("flatMapLatest") { $0.flatMapLatest { Just($0) } },
        free("flatMapFirst") { $0.flatMapFirst { Just($0) } },
        failing("ignoreFailure") { $0.ignoreFailure() },
        failing("mapToResult") { $0.mapToResult() },
        failing("materialize.failures") { $0.materialize().failures() },
    ]

    /// Combine's `replaceEmpty` asks upstream for `.unlimited` and passes each value on whatever
    /// downstream asked for (the differential suite's `replaceEmptyOverrunsADemandCounterInBoth`):
    /// the checker says so, and nothing else.
    @Test func replaceEmptyBreaksOnlyTheRuleOnDemandAsCombinesDoes() {
        let report = checkContract(
            ofOperator: { $0.replaceEmpty(with: 0) }, feeding: Self.values, upstreamDemand: .unconstrained)
        #expect(report.violations.map(\.rule) == [.demandIsRespected], "\(report)")
    }

    /// Everything the sweep checks.
    static let everything = publishers + operators + laterPublishers + extensionPublishers + extensionOperators

    @Test(arguments: everything)
    func everyPublisherAndOperatorKeepsEveryRule(_ subject: Case) {
        let report = subject.check()
        #expect(report.violations.isEmpty, "\(subject.name):\n\(report)")
    }
}
