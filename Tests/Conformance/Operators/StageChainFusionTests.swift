// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

/// Chains of stage operators over a synchronous source, through `sink`: Sluice runs `map` and
/// `filter` by continuation passing (each passes its upstream a body that applies it) and the
/// other stages through their cursor, mixed in any order. Every closure call and event must be
/// the fixed trace each case states, which the same chain over a subscribed source
/// (`eraseToAnyPublisher()`) must write too, peeks included.
@Suite struct StageChainFusionTests {
    typealias Log = FanInFusionTests.Log

    static func mapFilter<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .map { value in
                log("map \(value)"); return value * 3
            }
            .filter { value in
                log("filter \(value)"); return value % 2 == 0
            }
    }

    @Test func mapThenFilter() {
        FanInFusionTests.expectSame(
            { Self.mapFilter(FanInFusionTests.source("a", [1, 2, 3], $0), $0) },
            { Self.mapFilter(FanInFusionTests.source("a", [1, 2, 3], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                map 1
                filter 3
                a 3
                map 2
                filter 6
                sink 6
                map 3
                filter 9
                sink finished
                returned
                a 1
                a 2
                map 1
                filter 3
                a 3
                map 2
                filter 6
                map 3
                filter 9
                fold [6]
                fold finished
                returned
                """)
    }

    @Test func failingSource() {
        FanInFusionTests.expectSame(
            { Self.mapFilter(FanInFusionTests.failing("a", [2, 4], $0), $0) },
            { Self.mapFilter(FanInFusionTests.failing("a", [2, 4], $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 2
                a 4
                map 2
                filter 6
                sink 6
                map 4
                filter 12
                sink 12
                sink failure(oops)
                returned
                a 2
                a 4
                map 2
                filter 6
                map 4
                filter 12
                fold failure(oops)
                returned
                """)
    }

    static func mixed<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        upstream
            .map { value in
                log("map \(value)"); return value + 1
            }
            .prefix(4)
            .filter { value in
                log("filter \(value)"); return value != 3
            }
            .compactMap { value in
                log("compactMap \(value)"); return value == 4 ? nil : value
            }
            .map { value in
                log("map2 \(value)"); return value * 10
            }
    }

    @Test func mapAndFilterAroundPrefixAndCompactMap() {
        FanInFusionTests.expectSame(
            { Self.mixed(FanInFusionTests.source("a", Array(1...8), $0), $0) },
            { Self.mixed(FanInFusionTests.source("a", Array(1...8), $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 1
                a 2
                map 1
                filter 2
                compactMap 2
                map2 2
                sink 20
                a 3
                map 2
                filter 3
                a 4
                map 3
                filter 4
                compactMap 4
                a 5
                map 4
                filter 5
                compactMap 5
                map2 5
                sink 50
                sink finished
                returned
                a 1
                a 2
                map 1
                filter 2
                compactMap 2
                map2 2
                a 3
                map 2
                filter 3
                a 4
                map 3
                filter 4
                compactMap 4
                a 5
                map 4
                filter 5
                compactMap 5
                map2 5
                fold [20, 50]
                fold finished
                returned
                """)
        FanInFusionTests.expectSame(
            { Self.mixed(FanInFusionTests.source("a", [], $0), $0) },
            { Self.mixed(FanInFusionTests.source("a", [], $0).eraseToAnyPublisher(), $0) },
            trace: """
                sink finished
                returned
                fold []
                fold finished
                returned
                """)
    }

    static func sixteenStages<U: Publisher>(_ upstream: U, _ log: Log) -> some Publisher<Int, TestError>
    where U.Output == Int, U.Failure == TestError {
        let half =
            upstream
            .map { (x: Int) -> Int in x &+ 1 }.filter { (x: Int) -> Bool in x & 7 != 0 }
            .map { (x: Int) -> Int in x &* 3 }.filter { (x: Int) -> Bool in x & 1 == 0 }
            .map { (x: Int) -> Int in x &- 2 }.filter { (x: Int) -> Bool in x > 5 }
            .map { (x: Int) -> Int in x ^ 1 }.filter { (x: Int) -> Bool in x != 100 }
        return
            half
            .map { (x: Int) -> Int in x &+ 7 }.filter { (x: Int) -> Bool in x % 5 != 0 }
            .map { (x: Int) -> Int in x &* 5 }.filter { (x: Int) -> Bool in x & 2 == 0 }
            .map { (x: Int) -> Int in x &- 11 }.filter { (x: Int) -> Bool in x > 20 }
            .map { (x: Int) -> Int in x ^ 6 }
            .filter { (x: Int) -> Bool in
                log("last \(x)"); return x != 1000
            }
    }

    @Test func sixteenStageChain() {
        let lines = FanInFusionTests.expectSame(
            { Self.sixteenStages(FanInFusionTests.source("a", Array(0..<64), $0), $0) },
            { Self.sixteenStages(FanInFusionTests.source("a", Array(0..<64), $0).eraseToAnyPublisher(), $0) },
            trace: """
                a 0
                a 1
                a 2
                a 3
                a 4
                a 5
                a 6
                last 107
                sink 107
                a 7
                a 8
                a 9
                a 10
                last 175
                sink 175
                a 11
                a 12
                a 13
                a 14
                last 227
                sink 227
                a 15
                a 16
                a 17
                a 18
                a 19
                a 20
                a 21
                a 22
                last 347
                sink 347
                a 23
                a 24
                a 25
                a 26
                last 415
                sink 415
                a 27
                a 28
                a 29
                a 30
                last 467
                sink 467
                a 31
                a 32
                a 33
                a 34
                last 535
                sink 535
                a 35
                a 36
                a 37
                a 38
                a 39
                a 40
                a 41
                a 42
                last 655
                sink 655
                a 43
                a 44
                a 45
                a 46
                last 707
                sink 707
                a 47
                a 48
                a 49
                a 50
                last 775
                sink 775
                a 51
                a 52
                a 53
                a 54
                last 827
                sink 827
                a 55
                a 56
                a 57
                a 58
                a 59
                a 60
                a 61
                a 62
                last 947
                sink 947
                a 63
                sink finished
                returned
                a 0
                a 1
                a 2
                a 3
                a 4
                a 5
                a 6
                last 107
                a 7
                a 8
                a 9
                a 10
                last 175
                a 11
                a 12
                a 13
                a 14
                last 227
                a 15
                a 16
                a 17
                a 18
                a 19
                a 20
                a 21
                a 22
                last 347
                a 23
                a 24
                a 25
                a 26
                last 415
                a 27
                a 28
                a 29
                a 30
                last 467
                a 31
                a 32
                a 33
                a 34
                last 535
                a 35
                a 36
                a 37
                a 38
                a 39
                a 40
                a 41
                a 42
                last 655
                a 43
                a 44
                a 45
                a 46
                last 707
                a 47
                a 48
                a 49
                a 50
                last 775
                a 51
                a 52
                a 53
                a 54
                last 827
                a 55
                a 56
                a 57
                a 58
                a 59
                a 60
                a 61
                a 62
                last 947
                a 63
                fold [107, 175, 227, 347, 415, 467, 535, 655, 707, 775, 827, 947]
                fold finished
                returned
                """)
        // The values are what the stages compute as plain code.
        var expected: [String] = []
        for x in 0..<64 {
            let a = x &+ 1
            guard a & 7 != 0 else { continue }
            let b = a &* 3
            guard b & 1 == 0 else { continue }
            let c = b &- 2
            guard c > 5 else { continue }
            guard c ^ 1 != 100 else { continue }
            let d = (c ^ 1) &+ 7
            guard d % 5 != 0 else { continue }
            let e = d &* 5
            guard e & 2 == 0 else { continue }
            let f = e &- 11
            guard f > 20, f ^ 6 != 1000 else { continue }
            expected.append("sink \(f ^ 6)")
        }
        #expect(expected.count == 12)
        #expect(lines.filter { $0.hasPrefix("sink ") } == expected + ["sink finished"])
    }

    @Test func mapAndFilterKeepCombinesProperties() {
        let subject = PassthroughSubject<Int, Never>()
        let map = subject.map { $0 * 2 }
        #expect(map.upstream === subject)
        #expect(map.transform(21) == 42)
        let filter = map.filter { $0 > 2 }
        #expect(filter.isIncluded(4) && !filter.isIncluded(2))
        #expect(filter.upstream.transform(1) == 2)
        // `map` on a map composes the closures, as Combine's does.
        let composed: Publishers.Map<PassthroughSubject<Int, Never>, String> = map.map { "\($0)" }
        #expect(composed.upstream === subject)
        #expect(composed.transform(5) == "10")
    }
}
