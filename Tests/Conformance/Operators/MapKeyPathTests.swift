// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

private struct Point {
    var x: Int
    var y: Int
    var label: String
}

/// A root with every kind of key path a `map` may be given: stored properties inline, nested, of
/// a reference type, behind a tuple, computed, optional.
private struct Shape {
    final class Style {
        let name: String
        init(name: String) { self.name = name }
    }

    var origin: Point
    var pair: (small: UInt8, big: Int)
    var style: Style
    var tag: String?
    var width: Int
    var area: Int { width * width }
}

@Suite struct MapKeyPathTests {
    /// Whatever the key path is made of, the value published is the one the root holds there,
    /// through a stage that reads stored struct properties at their offset and anything else
    /// through the key path itself.
    @Test func keyPathsOfEveryKindPublishTheValueAtThem() {
        let shapes = [
            Shape(
                origin: Point(x: 1, y: 2, label: "one"), pair: (7, -7), style: .init(name: "bold"), tag: nil, width: 3),
            Shape(
                origin: Point(x: 4, y: 5, label: "a label past the small-string limit"), pair: (255, .max),
                style: .init(name: "thin"), tag: "t", width: 10),
        ]
        func published<T>(_ keyPath: KeyPath<Shape, T>) -> [T] {
            shapes.publisher.map(keyPath).record().values
        }
        #expect(published(\.origin.label) == ["one", "a label past the small-string limit"])
        #expect(published(\.origin.y) == [2, 5])
        #expect(published(\.pair.small) == [7, 255])
        #expect(published(\.pair.big) == [-7, .max])
        #expect(published(\.style.name) == ["bold", "thin"])
        #expect(published(\.style).map(\.name) == ["bold", "thin"])
        #expect(published(\.tag) == [nil, "t"])
        #expect(published(\.tag?.count) == [nil, 1])
        #expect(published(\.area) == [9, 100])
        #expect(published(\.self).map(\.width) == [3, 10])
        let styles = shapes.map(\.style)
        #expect(styles.publisher.map(\.name).record().values == ["bold", "thin"])
        let triples = shapes.publisher.map(\.origin.x, \.pair.small, \.style.name).record().values
        #expect(triples.map(\.0) == [1, 4] && triples.map(\.1) == [7, 255] && triples.map(\.2) == ["bold", "thin"])
    }

    @Test func oneKeyPathPublishesThatProperty() {
        let upstream = TestPublisher<Point, TestError>()
        let mapped: Publishers.MapKeyPath<TestPublisher<Point, TestError>, Int> = upstream.map(\.x)
        let recorder = mapped.record()
        upstream.send(Point(x: 1, y: 2, label: "a"))
        upstream.send(Point(x: 3, y: 4, label: "b"))
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(3), .finished])
        #expect(mapped.keyPath == \Point.x)
    }

    @Test func twoKeyPathsPublishATuple() {
        let upstream = TestPublisher<Point, TestError>()
        let mapped: Publishers.MapKeyPath2<TestPublisher<Point, TestError>, Int, String> = upstream.map(\.y, \.label)
        let recorder = mapped.record()
        upstream.send(Point(x: 1, y: 2, label: "a"))
        upstream.send(completion: .failure(.oops))
        #expect(recorder.trace == ["subscription", "value((2, \"a\"))", "failure(oops)"])
        #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["2a"])
    }

    @Test func threeKeyPathsPublishATuple() {
        let upstream = TestPublisher<Point, TestError>()
        let mapped: Publishers.MapKeyPath3<TestPublisher<Point, TestError>, String, Int, Int> = upstream.map(
            \.label, \.x, \.y)
        let recorder = mapped.record()
        upstream.send(Point(x: 5, y: 6, label: "c"))
        #expect(recorder.values.count == 1)
        #expect(recorder.values.first.map { $0 == ("c", 5, 6) } == true)
        #expect(mapped.keyPath0 == \Point.label && mapped.keyPath1 == \Point.x && mapped.keyPath2 == \Point.y)
    }

    @Test func failurePassesThrough() {
        let upstream = TestPublisher<Point, TestError>()
        let recorder = upstream.map(\.x).record()
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .failure(.other)])
    }

    @Test func demandAndCancelPassStraightUpstream() {
        let upstream = TestPublisher<Point, TestError>()
        let recorder = upstream.map(\.x, \.y).record(initialDemand: .max(2), demandPerValue: { _ in .max(3) })
        #expect(upstream.send(Point(x: 0, y: 0, label: "")) == .max(3))
        recorder.request(.max(1))
        recorder.cancel()
        #expect(upstream.events == [.subscribe, .request(.max(2)), .request(.max(1)), .cancel])
    }

    @Test func zeroAndLimitedDemand() {
        let points = (1...4).map { Point(x: $0, y: -$0, label: "\($0)") }
        let recorder = points.publisher.map(\.label).record(initialDemand: nil)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(2))
        #expect(recorder.values == ["1", "2"])
        recorder.request(.unlimited)
        #expect(recorder.events.suffix(3) == [.value("3"), .value("4"), .finished])
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.map(\.magnitude) }
        OperatorLaws.checkPassThrough { $0.map(\.magnitude, \.description) }
        OperatorLaws.checkPassThrough { $0.map(\.magnitude, \.description, \.byteSwapped) }
    }
}
