// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Programs as Swift. The output pastes into a conformance test (Tests/Conformance): it uses the
// suite's `RecordingSubscriber`, `TestPublisher` and `TestError`; `log` stands for whatever the
// test records handleEvents traffic into, and `printLog` for a `TextOutputStream` that writes into it.

extension Source {
    /// Statements that must run before the chain, and the chain's head expression.
    var swiftSetup: (setup: [String], head: String) {
        switch self {
        case .just(let v): return ([], "Just(\(v))")
        case .empty(let f): return ([], "Empty<Int, \(f.swift)>()")
        case .fail(let e): return ([], "Fail<Int, any Error>(error: TestError.\(e))")
        case .sequence(let vs, .never):
            return ([], vs.isEmpty ? "[Int]().publisher" : "\(vs).publisher")
        case .sequence(let vs, .error):
            return ([], "Publishers.Sequence<[Int], any Error>(sequence: \(vs))")
        case .passthrough:
            return (["let subject = PassthroughSubject<Int, any Error>()"], "subject")
        case .currentValue(let v):
            return (["let subject = CurrentValueSubject<Int, any Error>(\(v))"], "subject")
        case .future(let v?):
            return (["let future = Future<Int, any Error> { $0(.success(\(v))) }"], "future")
        case .future(nil):
            return (
                [
                    "nonisolated(unsafe) var promise: Future<Int, any Error>.Promise?",
                    "let future = Future<Int, any Error> { promise = $0 }",
                ], "future"
            )
        case .deferred(let inner):
            return ([], "Deferred { \(inner.swiftSetup.head) }")
        case .upstream:
            return (["let upstream = TestPublisher<Int, any Error>()"], "upstream")
        case .replay(let n):
            return (["let subject = ReplaySubject<Int, any Error>(bufferSize: \(n))"], "subject")
        case .relay:
            return (["let relay = PassthroughRelay<Int>()"], "relay")
        case .currentValueRelay(let v):
            return (["let relay = CurrentValueRelay(\(v))"], "relay")
        }
    }
}

extension Side {
    func swift(_ failure: FailureKind) -> String {
        switch (self, failure) {
        case (.just(let v), .never): "Just(\(v))"
        case (.just(let v), .error): "Just(\(v)).setFailureType(to: (any Error).self)"
        case (.sequence(let vs), .never): vs.isEmpty ? "[Int]().publisher" : "\(vs).publisher"
        case (.sequence(let vs), .error): "Publishers.Sequence<[Int], any Error>(sequence: \(vs))"
        case (.other, .never): "other.replaceError(with: -1)"
        case (.other, .error): "other"
        }
    }
}

extension Side {
    /// `n` copies of the side, as an array: `Array(repeating:count:)`, each copy erased or not.
    func swift(_ failure: FailureKind, times n: Int, erased: Bool = false) -> String {
        "Array(repeating: \(swift(failure))\(erased ? ".eraseToAnyPublisher()" : ""), count: \(n))"
    }
}

extension Op {
    /// Where an operator written around the chain (a collection of publishers that holds it)
    /// puts the chain: the printer splits the operator's text there.
    static let chain = "<chain>"
}

extension Inner {
    /// The inner publisher made of `v`.
    func swift(_ failure: FailureKind) -> String {
        switch self {
        case .just: failure == .never ? "Just(v)" : "Just(v).setFailureType(to: (any Error).self)"
        case .pair:
            failure == .never ? "[v, v &+ 1].publisher" : "Publishers.Sequence<[Int], any Error>(sequence: [v, v &+ 1])"
        case .empty: "Empty<Int, \(failure.swift)>()"
        case .fail: "Fail<Int, any Error>(error: TestError.other)"
        case .other: Side.other.swift(failure)
        }
    }
}

extension Op {
    func swift(at index: Int, failure: FailureKind) -> String {
        let isOops = "throw TestError.oops"
        switch self {
        case .map(let f): return ".map { \(f.swift("$0")) }"
        case .filter(let p): return ".filter { \(p.swift("$0")) }"
        case .compactMap(let p, let f): return ".compactMap { \(p.swift("$0")) ? nil : \(f.swift("$0")) }"
        case .tryMap(let p, let f):
            return ".tryMap { v in if \(p.swift("v")) { \(isOops) }; return \(f.swift("v")) }"
        case .scan(let i, let a): return ".scan(\(i)) { \(a.swift("$0", "$1")) }"
        case .tryScan(let i, let a, let p):
            return ".tryScan(\(i)) { acc, v in if \(p.swift("v")) { \(isOops) }; return \(a.swift("acc", "v")) }"
        case .removeDuplicates: return ".removeDuplicates()"
        case .replaceNil(let p, let v): return ".map { \(p.swift("$0")) ? nil : $0 }.replaceNil(with: \(v))"
        case .replaceError(let v): return ".replaceError(with: \(v))"
        case .replaceEmpty(let v): return ".replaceEmpty(with: \(v))"
        case .mapError:
            return ".mapError { e -> any Error in (e as? TestError) == .oops ? TestError.other : TestError.oops }"
        case .setFailureType: return ".setFailureType(to: (any Error).self)"
        case .collect: return ".collect().map { \(encodeCollectedSwift) }"
        case .collectCount(let n): return ".collect(\(n)).map { \(encodeCollectedSwift) }"
        case .reduce(let i, let a): return ".reduce(\(i)) { \(a.swift("$0", "$1")) }"
        case .count: return ".count()"
        case .min: return ".min()"
        case .max: return ".max()"
        case .first: return ".first()"
        case .last: return ".last()"
        case .firstWhere(let p): return ".first(where: { \(p.swift("$0")) })"
        case .contains(let v): return ".contains(\(v)).map { $0 ? 1 : 0 }"
        case .containsWhere(let p): return ".contains(where: { \(p.swift("$0")) }).map { $0 ? 1 : 0 }"
        case .allSatisfy(let p): return ".allSatisfy { \(p.swift("$0")) }.map { $0 ? 1 : 0 }"
        case .ignoreOutput: return ".ignoreOutput().map { _ -> Int in 0 }"
        case .dropFirst(let n): return ".dropFirst(\(n))"
        case .dropWhile(let p): return ".drop(while: { \(p.swift("$0")) })"
        case .prefix(let n): return ".prefix(\(n))"
        case .prefixWhile(let p): return ".prefix(while: { \(p.swift("$0")) })"
        case .outputAt(let n): return ".output(at: \(n))"
        case .outputIn(let a, let b): return ".output(in: \(a)...\(b))"
        case .append(let vs): return ".append(\(vs))"
        case .prepend(let vs): return ".prepend(\(vs))"
        case .catchWith(let r): return ".catch { _ in \(r.swift) }"
        case .retry(let n): return ".retry(\(n))"
        case .handleEvents:
            let h = "h\(index)"
            return ".handleEvents(receiveSubscription: { _ in log(\"\(h): subscription\") }, "
                + "receiveOutput: { log(\"\(h): output(\\($0))\") }, "
                + "receiveCompletion: { log(\"\(h): \\($0)\") }, "
                + "receiveCancel: { log(\"\(h): cancel\") }, "
                + "receiveRequest: { log(\"\(h): request(\\($0))\") })"
        case .print: return ".print(\"p\(index)\", to: printLog)"
        case .erase: return ".eraseToAnyPublisher()"
        case .merge(let side): return ".merge(with: \(side.swift(failure)))"
        case .zip(let side): return ".zip(\(side.swift(failure))).map { $0.0 &* 100 &+ $0.1 }"
        case .combineLatest(let side): return ".combineLatest(\(side.swift(failure))).map { $0.0 &* 100 &+ $0.1 }"
        case .flatMap(let d, let inner): return ".flatMap(maxPublishers: \(d)) { v in \(inner.swift(failure)) }"
        case .switchToLatest(let inner): return ".map { v in \(inner.swift(failure)) }.switchToLatest()"
        case .share: return ".share()"
        case .shareReplay(let n): return ".share(replay: \(n))"
        case .withLatestFrom(let side): return ".withLatestFrom(\(side.swift(failure))) { $0 &* 100 &+ $1 }"
        case .multicastAutoconnect: return ".multicast { PassthroughSubject<Int, \(failure.swift)>() }.autoconnect()"
        case .buffer(let n, let keepFull, let full):
            let whenFull =
                switch full {
                case .dropNewest: ".dropNewest"
                case .dropOldest: ".dropOldest"
                case .customError: ".customError { TestError.other }"
                }
            return ".buffer(size: \(n), prefetch: \(keepFull ? ".keepFull" : ".byRequest"), whenFull: \(whenFull))"
        case .delay(let ms): return ".delay(for: .milliseconds(\(ms)), scheduler: scheduler)"
        case .debounce(let ms): return ".debounce(for: .milliseconds(\(ms)), scheduler: scheduler)"
        case .throttle(let ms, let latest):
            return ".throttle(for: .milliseconds(\(ms)), scheduler: scheduler, latest: \(latest))"
        case .timeout(let ms, false): return ".timeout(.milliseconds(\(ms)), scheduler: scheduler)"
        case .timeout(let ms, true):
            return ".timeout(.milliseconds(\(ms)), scheduler: scheduler, customError: { TestError.other })"
        case .receiveOn: return ".receive(on: scheduler)"
        case .subscribeOn: return ".subscribe(on: scheduler)"
        case .measureInterval: return ".measureInterval(using: scheduler).map { $0.nanoseconds / 1_000_000 }"
        case .collectByTime(let ms):
            return ".collect(.byTime(scheduler, .milliseconds(\(ms)))).map { \(encodeCollectedSwift) }"
        case .collectByTimeOrCount(let ms, let n):
            return ".collect(.byTimeOrCount(scheduler, .milliseconds(\(ms)), \(n))).map { \(encodeCollectedSwift) }"
        case .amb(let side): return ".amb(\(side.swift(failure)))"
        case .zipWith(let side, let n):
            return ".zip(with: \(side.swift(failure, times: n))).map { \(encodeCollectedSwift) }"
        case .combineLatestWith(let side, let n):
            return ".combineLatest(with: \(side.swift(failure, times: n))).map { \(encodeCollectedSwift) }"
        case .mergeMany(let side, let n):
            return "([\(Op.chain).eraseToAnyPublisher()] + \(side.swift(failure, times: n, erased: true))).merge()"
        case .flatMapBatches(let side, let n, let size):
            return "([\(Op.chain).eraseToAnyPublisher()] + \(side.swift(failure, times: n, erased: true)))"
                + ".flatMapBatches(of: \(size)).map { \(encodeCollectedSwift) }"
        case .nwise(let n): return ".nwise(\(n)).map { \(encodeCollectedSwift) }"
        case .partition(let p, let matches):
            return ".partition { \(p.swift("$0")) }.\(matches ? "matches" : "nonMatches")"
        case .prefixDuration(let ms): return ".prefix(duration: .milliseconds(\(ms)), on: scheduler)"
        }
    }
}

extension Program {
    /// The program as Swift statements.
    public var swift: String {
        var lines: [String] = []
        let (setup, head) = source.swiftSetup
        lines += setup
        let failure = failures.last ?? .never
        let end = operatorUnderTest.map { ($0.output, $0.failure) } ?? ("Int", failure.swift)
        lines += subscriber.swiftRecorder("recorder", output: end.0, failure: end.1)
        if let second = secondSubscriber { lines += second.swiftRecorder("recorder2", output: end.0, failure: end.1) }
        if usesScheduler { lines.append("let scheduler = VirtualTimeScheduler()") }
        if usesOther { lines.append("let other = PassthroughSubject<Int, any Error>()") }
        var expression = [head]
        let stageFailures = failures
        for (i, op) in ops.enumerated() {
            let text = op.swift(at: i, failure: stageFailures[i])
            if let chain = text.firstRange(of: Op.chain) {
                expression[0] = text[..<chain.lowerBound] + expression[0]
                expression.append("    " + text[chain.upperBound...])
            } else {
                expression.append("    " + text)
            }
        }
        if let underTest = operatorUnderTest {
            // The chain so far is its input; the operator is written as a call.
            if failure == .never { expression.append("    .setFailureType(to: (any Error).self)") }
            lines.append("let input = " + expression[0])
            lines += expression.dropFirst() + ["    .eraseToAnyPublisher()"]
            expression = ["\(underTest.name)(input)"]
        }
        lines.append((secondSubscriber == nil ? "" : "let pipeline = ") + expression[0])
        lines += expression.dropFirst()
        if secondSubscriber == nil {
            lines.append("    .subscribe(recorder)")
        } else {
            lines += ["pipeline.subscribe(recorder)", "pipeline.subscribe(recorder2)"]
        }
        let target: String? =
            switch source {
            case .passthrough, .currentValue, .replay: "subject"
            case .relay, .currentValueRelay: "relay"
            case .upstream: "upstream"
            case .future(nil): "promise"
            default: nil
            }
        for step in steps {
            switch step {
            case .sendOther(let v): lines.append("other.send(\(v))")
            case .finishOther: lines.append("other.send(completion: .finished)")
            case .failOther(let e): lines.append("other.send(completion: .failure(TestError.\(e)))")
            case .advance(let ms): lines.append("scheduler.advance(by: .milliseconds(\(ms)))")
            case .request(let d): lines.append("recorder.request(\(d))")
            case .cancel: lines.append("recorder.cancel()")
            case .send(let v):
                guard let target else { continue }
                switch target {
                case "promise": lines.append("promise?(.success(\(v)))")
                case "upstream": lines.append("upstream.send(\(v))  // only while it has outstanding demand")
                case "relay": lines.append("relay.accept(\(v))")
                default: lines.append("\(target).send(\(v))")
                }
            case .finish:
                guard let target else { continue }
                if target == "promise" || target == "relay" { continue }
                lines.append("\(target).send(completion: .finished)")
            case .fail(let e):
                guard let target, target != "relay" else { continue }
                if target == "promise" {
                    lines.append("promise?(.failure(TestError.\(e)))")
                } else {
                    lines.append("\(target).send(completion: .failure(TestError.\(e)))")
                }
            }
        }
        if usesScheduler { lines.append("scheduler.advance(by: .seconds(1))  // what is still scheduled runs") }
        return lines.joined(separator: "\n")
    }
}

extension SubscriberScript {
    /// The statements that make a `RecordingSubscriber` named `name` that follows this script.
    func swiftRecorder(_ name: String, output: String, failure: String) -> [String] {
        let initialDemand = initial == .none ? "nil" : initial.description
        var args = "initialDemand: \(initialDemand), demandPerValue: { _ in \(perValue) }"
        if let n = cancelAfterValues { args += ", cancelAfterValues: \(n)" }
        var lines = ["let \(name) = RecordingSubscriber<\(output), \(failure)>(\(args))"]
        if let r = reentrantRequest {
            lines.append(
                "\(name).onValue = { _ in if \(name).values.count == \(r.afterValues) { \(name).request(\(r.demand)) } }"
            )
        }
        return lines
    }
}
