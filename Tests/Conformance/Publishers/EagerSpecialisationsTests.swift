// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Combine's specialisations on its eager sources return eager sources. Each test pins the static
/// type with an annotation (the test does not compile if the general operator were chosen) and
/// checks the value the specialisation computed.
@Suite struct JustSpecialisationTests {
    @Test func mappingAndFailureTypes() throws {
        let mapped: Just<String> = Just(42).map { "\($0)" }
        #expect(mapped.output == "42")
        let tryMapped: Result<Int, any Error>.Publisher = Just(1).tryMap { $0 + 1 }
        #expect(try tryMapped.result.get() == 2)
        let thrown: Result<Int, any Error>.Publisher = Just(1).tryMap { _ in throw TestError.oops }
        #expect(thrown.record().completions.count == 1)
        let mapError: Result<Int, TestError>.Publisher = Just(3).mapError { _ -> TestError in }
        #expect(mapError.result == .success(3))
        let typed: Result<Int, TestError>.Publisher = Just(4).setFailureType(to: TestError.self)
        #expect(typed.result == .success(4))
        let scanned: Result<Int, Never>.Publisher = Just(4).scan(2, +)
        #expect(scanned.result == .success(6))
        let tryScanned: Result<Int, any Error>.Publisher = Just(4).tryScan(2, *)
        #expect(try tryScanned.result.get() == 8)
    }

    @Test func filtering() {
        let kept: Optional<Int>.Publisher = Just(1).filter { $0 > 0 }
        let dropped: Optional<Int>.Publisher = Just(1).filter { $0 < 0 }
        #expect(kept.output == 1)
        #expect(dropped.output == nil)
        let compact: Optional<String>.Publisher = Just(42).compactMap { $0 == 42 ? "yes" : nil }
        #expect(compact.output == "yes")
        #expect(Just(1).compactMap { _ -> Int? in nil }.output == nil)
        let deduplicated: Just<Int> = Just(5).removeDuplicates()
        #expect(deduplicated.output == 5)
        var calls = 0
        let deduplicatedBy: Just<Int> = Just(5).removeDuplicates { _, _ in
            calls += 1; return true
        }
        #expect(deduplicatedBy.output == 5)
        #expect(calls == 0)
        let tryDeduplicated: Result<Int, any Error>.Publisher = Just(5).tryRemoveDuplicates { _, _ in
            throw TestError.oops
        }
        #expect((try? tryDeduplicated.result.get()) == nil)
        let replacedError: Just<Int> = Just(1).replaceError(with: 9)
        let replacedEmpty: Just<Int> = Just(1).replaceEmpty(with: 9)
        let retried: Just<Int> = Just(1).retry(3)
        #expect([replacedError.output, replacedEmpty.output, retried.output] == [1, 1, 1])
    }

    @Test func reducing() throws {
        let collected: Just<[Int]> = Just(13).collect()
        #expect(collected.output == [13])
        let counted: Just<Int> = Just("x").count()
        #expect(counted.output == 1)
        let reduced: Result<Int, Never>.Publisher = Just(4).reduce(2, +)
        #expect(reduced.result == .success(6))
        let tryReduced: Result<Int, any Error>.Publisher = Just(4).tryReduce(2) { _, _ in throw TestError.oops }
        #expect(tryReduced.record().values.isEmpty)
        let ignored: Empty<Int, Never> = Just(1).ignoreOutput()
        #expect(ignored.completeImmediately)
        #expect(ignored.record().events == [.subscription, .finished])
    }

    @Test func mathematicsAndMatching() throws {
        let minimum: Just<Int> = Just(3).min()
        let maximum: Just<Int> = Just(3).max()
        var calls = 0
        let minimumBy: Just<Int> = Just(3).min { _, _ in
            calls += 1; return true
        }
        let maximumBy: Just<Int> = Just(3).max { _, _ in
            calls += 1; return true
        }
        #expect([minimum.output, maximum.output, minimumBy.output, maximumBy.output] == [3, 3, 3, 3])
        #expect(calls == 0)
        let contains: Just<Bool> = Just(10).contains(10)
        let containsWhere: Just<Bool> = Just(10).contains { $0 > 20 }
        let allSatisfy: Just<Bool> = Just(10).allSatisfy { $0 > 0 }
        #expect([contains.output, containsWhere.output, allSatisfy.output] == [true, false, true])
        let tryContains: Result<Bool, any Error>.Publisher = Just(1).tryContains { $0 == 1 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = Just(1).tryAllSatisfy { _ in throw TestError.oops }
        #expect(try tryContains.result.get())
        #expect((try? tryAllSatisfy.result.get()) == nil)
    }

    @Test func sequenceOperations() {
        let first: Just<Int> = Just(1).first()
        let last: Just<Int> = Just(1).last()
        #expect(first.output == 1 && last.output == 1)
        let firstWhere: Optional<Int>.Publisher = Just(1).first { $0 > 1 }
        let lastWhere: Optional<Int>.Publisher = Just(1).last { $0 == 1 }
        #expect(firstWhere.output == nil && lastWhere.output == 1)
        let droppedFirst: Optional<Int>.Publisher = Just(1).dropFirst()
        #expect(droppedFirst.output == nil)
        #expect(Just(1).dropFirst(0).output == 1)
        let droppedWhile: Optional<Int>.Publisher = Just(1).drop { $0 > 5 }
        #expect(droppedWhile.output == 1)
        let prefix: Optional<Int>.Publisher = Just(1).prefix(1)
        #expect(prefix.output == 1)
        #expect(Just(1).prefix(0).output == nil)
        let prefixWhile: Optional<Int>.Publisher = Just(1).prefix { $0 > 5 }
        #expect(prefixWhile.output == nil)
        let at: Optional<Int>.Publisher = Just(12).output(at: 0)
        #expect(at.output == 12)
        #expect(Just(12).output(at: 1).output == nil)
        let inRange: Optional<Int>.Publisher = Just(12).output(in: 0..<10)
        #expect(inRange.output == 12)
        #expect(Just(12).output(in: 1..<10).output == nil)
        #expect(Just(12).output(in: -10..<10).output == nil)
        let prepended: Publishers.Sequence<[Int], Never> = Just(5).prepend(1, 2)
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append([2, 3])
        #expect(prepended.sequence == [1, 2, 5])
        #expect(appended.sequence == [1, 2, 3])
        #expect(Just(1).append(2, 3).record().values == [1, 2, 3])
    }

    @Test func negativeCountsTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).prefix(-1)
        }
        expectTrapMessage(result, contains: "prefix(_:) requires a non-negative maxLength")
    }
}

@Suite struct OptionalPublisherSpecialisationTests {
    private let some = Optional(4).publisher
    private let none = Optional<Int>.none.publisher

    @Test func mappingAndFiltering() {
        let mapped: Optional<String>.Publisher = some.map { "\($0)" }
        #expect(mapped.output == "4")
        #expect(none.map { $0 + 1 }.output == nil)
        let filtered: Optional<Int>.Publisher = some.filter { $0 > 10 }
        #expect(filtered.output == nil)
        let compact: Optional<Int>.Publisher = some.compactMap { $0 * 2 }
        #expect(compact.output == 8)
        let replacedEmpty: Just<Int> = none.replaceEmpty(with: 100)
        #expect(replacedEmpty.output == 100)
        #expect(some.replaceEmpty(with: 100).output == 4)
        let replacedError: Optional<Int>.Publisher = some.replaceError(with: 1)
        let retried: Optional<Int>.Publisher = none.retry(1)
        #expect(replacedError.output == 4 && retried.output == nil)
        let deduplicated: Optional<Int>.Publisher = some.removeDuplicates()
        #expect(deduplicated == some)
    }

    @Test func nilStaysNilThroughTheFolds() {
        let counted: Optional<Int>.Publisher = none.count()
        #expect(counted.output == nil)
        #expect(some.count().output == 1)
        let reduced: Optional<Int>.Publisher = none.reduce(2, +)
        #expect(reduced.output == nil)
        #expect(some.reduce(2, +).output == 6)
        let scanned: Optional<Int>.Publisher = some.scan(2, +)
        #expect(scanned.output == 6)
        let contains: Optional<Bool>.Publisher = none.contains(4)
        #expect(contains.output == nil)
        #expect(some.contains(4).output == true)
        let allSatisfy: Optional<Bool>.Publisher = some.allSatisfy { $0 > 10 }
        #expect(allSatisfy.output == false)
        let collected: Optional<[Int]>.Publisher = none.collect()
        #expect(collected.output == [])
        #expect(some.collect().output == [4])
        let ignored: Empty<Int, Never> = some.ignoreOutput()
        #expect(ignored.record().events == [.subscription, .finished])
    }

    @Test func sequenceOperations() {
        let minimum: Optional<Int>.Publisher = some.min()
        let maximumBy: Optional<Int>.Publisher = some.max { _, _ in true }
        #expect(minimum.output == 4 && maximumBy.output == 4)
        let first: Optional<Int>.Publisher = some.first()
        let lastWhere: Optional<Int>.Publisher = some.last { $0 < 0 }
        #expect(first.output == 4 && lastWhere.output == nil)
        let droppedFirst: Optional<Int>.Publisher = some.dropFirst()
        #expect(droppedFirst.output == nil && some.dropFirst(0).output == 4)
        let at: Optional<Int>.Publisher = some.output(at: 0)
        #expect(at.output == 4 && some.output(at: 1).output == nil)
        let inRange: Optional<Int>.Publisher = some.output(in: 0...0)
        #expect(inRange.output == 4)
        #expect(some.output(in: 0..<0).output == nil)
        #expect(some.output(in: 1..<3).output == nil)
        let prefix: Optional<Int>.Publisher = some.prefix(2)
        #expect(prefix.output == 4 && some.prefix(0).output == nil)
    }

    @Test func negativeLowerBoundTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: -1...4)
        }
        expectTrapMessage(result, contains: "output(in:) requires a non-negative lower bound")
    }
}

@Suite struct ResultPublisherSpecialisationTests {
    private let success = Result<Int, TestError>.success(4).publisher
    private let failure = Result<Int, TestError>.failure(.oops).publisher

    @Test func mapping() throws {
        let mapped: Result<String, TestError>.Publisher = success.map { "\($0)" }
        #expect(mapped.result == .success("4"))
        #expect(failure.map { $0 + 1 }.result == .failure(.oops))
        let tryMapped: Result<Int, any Error>.Publisher = success.tryMap { _ in throw TestError.other }
        #expect(tryMapped.record().trace == ["subscription", "failure(other)"])
        #expect(failure.tryMap { $0 }.record().trace == ["subscription", "failure(oops)"])
        let mapError: Result<Int, TestError>.Publisher = failure.mapError { _ in .other }
        #expect(mapError.result == .failure(.other))
        let replaced: Result<Int, Never>.Publisher = failure.replaceError(with: 100)
        #expect(replaced.result == .success(100))
        let typed: Result<Int, TestError>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(
            to: TestError.self)
        #expect(typed.result == .success(1))
    }

    @Test func folds() throws {
        let counted: Result<Int, TestError>.Publisher = success.count()
        #expect(counted.result == .success(1))
        #expect(failure.count().result == .failure(.oops))
        let collected: Result<[Int], TestError>.Publisher = success.collect()
        #expect(collected.result == .success([4]))
        let reduced: Result<Int, TestError>.Publisher = success.reduce(2, +)
        #expect(reduced.result == .success(6))
        let tryScanned: Result<Int, any Error>.Publisher = success.tryScan(2, *)
        #expect(try tryScanned.result.get() == 8)
        let contains: Result<Bool, TestError>.Publisher = success.contains(4)
        #expect(contains.result == .success(true))
        let allSatisfy: Result<Bool, TestError>.Publisher = failure.allSatisfy { _ in true }
        #expect(allSatisfy.result == .failure(.oops))
    }

    @Test func tryComparisonsCallTheClosureOnce() {
        var calls = 0
        let minimum: Result<Int, any Error>.Publisher = success.tryMin { _, _ in
            calls += 1; return true
        }
        #expect((try? minimum.result.get()) == 4)
        let maximum: Result<Int, any Error>.Publisher = success.tryMax { _, _ in
            calls += 1; throw TestError.other
        }
        #expect((try? maximum.result.get()) == nil)
        _ = failure.tryMin { _, _ in
            calls += 1; return true
        }
        #expect(calls == 2)
        let plain: Result<Int, TestError>.Publisher = success.min { _, _ in
            calls += 1; return true
        }
        #expect(plain.result == .success(4))
        #expect(calls == 2)
    }

    @Test func ignoreOutputFinishesEvenForAFailure() {
        let ignored: Empty<Int, TestError> = failure.ignoreOutput()
        #expect(ignored.record().events == [.subscription, .finished])
    }
}

@Suite struct SequenceSpecialisationTests {
    @Test func mappingAndFiltering() {
        let mapped: Publishers.Sequence<[String], Never> = [1, 2].publisher.map { "\($0)" }
        #expect(mapped.sequence == ["1", "2"])
        let filtered: Publishers.Sequence<[Int], Never> = (0..<10).publisher.filter { $0.isMultiple(of: 3) }
        #expect(filtered.sequence == [0, 3, 6, 9])
        let compact: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        #expect(compact.sequence == [1, 3])
        let scanned: Publishers.Sequence<[Int], Never> = (0..<5).publisher.scan(0, +)
        #expect(scanned.sequence == [0, 1, 3, 6, 10])
        let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 2)
        #expect(replaced.sequence == [1, 2, 3])
        let deduplicated: Publishers.Sequence<[Int], Never> = [0, 0, 1, 0, 1, 1].publisher.removeDuplicates()
        #expect(deduplicated.sequence == [0, 1, 0, 1])
        let typed: Publishers.Sequence<[Int], TestError> = [1].publisher.setFailureType(to: TestError.self)
        #expect(typed.record().events == [.subscription, .value(1), .finished])
    }

    /// Combine's eager operators run their closure once per element when applied, before anything
    /// subscribes, whether the elements are contiguous (an array, a slice) or not (a lazy sequence);
    /// the results they hold are owned (freed with the publisher, each once).
    @Test func eagerOperatorsRunWhenAppliedAndOwnTheirResults() {
        final class Box {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        weak var probe: Box?
        var calls = 0
        func check<Elements: Sequence<Int>>(_ elements: Elements) {
            calls = 0
            let boxes = elements.publisher.map { value -> Box in
                calls += 1
                return Box(value)
            }
            #expect(calls == 6)
            let evens = boxes.filter { $0.value.isMultiple(of: 2) }
            let odds = boxes.compactMap { $0.value.isMultiple(of: 2) ? nil : $0.value }
            let replaced = boxes.map { $0.value.isMultiple(of: 3) ? nil : $0 }.replaceNil(with: Box(-1))
            probe = evens.sequence.last
            #expect(evens.sequence.map(\.value) == [0, 2, 4])
            #expect(odds.sequence == [1, 3, 5])
            #expect(replaced.sequence.map { $0?.value } == [-1, 1, 2, -1, 4, 5])
            #expect(calls == 6)
        }
        let numbers = Array(0..<6)
        check(numbers)
        #expect(probe == nil)
        check(numbers[...])
        #expect(probe == nil)
        check(numbers.lazy.filter { _ in true })
        #expect(probe == nil)
    }

    @Test func sequenceOperations() {
        let droppedFirst: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
        #expect(Array(droppedFirst.sequence) == [2, 3])
        let droppedWhile: Publishers.Sequence<DropWhileSequence<Range<Int>>, Never> = (0..<7).publisher.drop { $0 < 5 }
        #expect(Array(droppedWhile.sequence) == [5, 6])
        let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
        #expect(Array(prefix.sequence) == [1, 2])
        let prefixWhile: Publishers.Sequence<[Int], Never> = (0..<10).publisher.prefix { $0 < 3 }
        #expect(prefixWhile.sequence == [0, 1, 2])
        let appended: Publishers.Sequence<[Int], Never> = [1].publisher.append(2, 3)
        #expect(appended.sequence == [1, 2, 3])
        let prepended: Publishers.Sequence<[Int], Never> = [3].publisher.prepend([1, 2].publisher)
        #expect(prepended.sequence == [1, 2, 3])
        #expect([3].publisher.prepend(1, 2).sequence == [1, 2, 3])
        #expect([1].publisher.append([2, 3].publisher).sequence == [1, 2, 3])
        let inRange: Publishers.Sequence<[Int], Never> = [1, 2, 3, 4].publisher.output(in: 1..<3)
        #expect(inRange.sequence == [2, 3])
    }

    @Test func foldsThatCannotFailGiveOptionalOrJust() {
        let counted: Just<Int> = [1, 2, 3].publisher.count()
        #expect(counted.output == 3)
        let first: Optional<Int>.Publisher = [1, 2, 3].publisher.first()
        let last: Optional<Int>.Publisher = [1, 2, 3].publisher.last()
        #expect(first.output == 1 && last.output == 3)
        #expect([Int]().publisher.first().output == nil)
        let firstWhere: Optional<Int>.Publisher = (1..<9).publisher.first { $0.isMultiple(of: 4) }
        let lastWhere: Optional<Int>.Publisher = (1..<9).publisher.last { $0.isMultiple(of: 4) }
        #expect(firstWhere.output == 4 && lastWhere.output == 8)
        let minimum: Optional<Int>.Publisher = [3, -1, 5].publisher.min()
        let maximum: Optional<Int>.Publisher = [3, -1, 5].publisher.max()
        let minimumBy: Optional<Int>.Publisher = [3, -1, 5].publisher.min(by: >)
        #expect(minimum.output == -1 && maximum.output == 5 && minimumBy.output == 5)
        let at: Optional<Int>.Publisher = [1, 2, 3].publisher.output(at: 1)
        #expect(at.output == 2)
        #expect([1, 2, 3].publisher.output(at: 7).output == nil)
        #expect([1, 2, 3].publisher.output(at: -1).output == nil)
    }

    @Test func foldsThatMayFailGiveResults() throws {
        let failable = Publishers.Sequence<[Int], TestError>(sequence: [1, 2, 3])
        let counted: Result<Int, TestError>.Publisher = failable.count()
        #expect(counted.result == .success(3))
        let lazyCount: Result<Int, Never>.Publisher = [1, 2, 3, 4].lazy.filter { $0.isMultiple(of: 2) }.publisher
            .count()
        #expect(lazyCount.result == .success(2))
        let collected: Result<[Int], TestError>.Publisher = failable.collect()
        #expect(collected.result == .success([1, 2, 3]))
        let reduced: Result<Int, TestError>.Publisher = failable.reduce(10, +)
        #expect(reduced.result == .success(16))
        let tryReduced: Result<Int, any Error>.Publisher = failable.tryReduce(0) { _, _ in throw TestError.oops }
        #expect((try? tryReduced.result.get()) == nil)
        let contains: Result<Bool, TestError>.Publisher = failable.contains(2)
        let containsWhere: Result<Bool, TestError>.Publisher = failable.contains { $0 > 5 }
        let allSatisfy: Result<Bool, TestError>.Publisher = failable.allSatisfy { $0 > 0 }
        #expect(
            [contains.result, containsWhere.result, allSatisfy.result] == [
                .success(true), .success(false), .success(true),
            ])
        let tryContains: Result<Bool, any Error>.Publisher = failable.tryContains { $0 == 3 }
        let tryAllSatisfy: Result<Bool, any Error>.Publisher = failable.tryAllSatisfy { _ in throw TestError.oops }
        #expect(try tryContains.result.get())
        #expect((try? tryAllSatisfy.result.get()) == nil)
        let ignored: Empty<Int, TestError> = failable.ignoreOutput()
        #expect(ignored.record().events == [.subscription, .finished])
    }
}
