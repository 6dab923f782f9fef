// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation
import Testing

/// A `TopLevelEncoder` over Foundation's JSON coder (the Foundation conformances are the app layer's).
private struct JSONCoder: TopLevelEncoder, TopLevelDecoder {
    func encode<T: Encodable>(_ value: T) throws -> Data { try JSONEncoder().encode(value) }
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}

/// Fails every value it is given.
private struct FailingEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Data { throw TestError.oops }
}

private struct Point: Codable, Equatable {
    let x: Int
}

@Suite struct EncodeTests {
    /// As Combine's (OpenCombine's `EncodeTests.testEncodeReceiveValueBeforeSubscription` and
    /// `...CompletionBeforeSubscription`): a value and a completion that come before upstream's
    /// subscription still go through.
    @Test func aValueAndACompletionBeforeTheSubscriptionGoThrough() throws {
        let held = HeldPublisher<Point, TestError>()
        let recorder = held.encode(encoder: JSONCoder()).record()
        let subscriber = try #require(held.subscriber)
        _ = subscriber.receive(Point(x: 3))
        subscriber.receive(completion: .finished)
        #expect(recorder.values.map { String(decoding: $0, as: UTF8.self) } == [#"{"x":3}"#])
        #expect(recorder.completions.count == 1)
    }

    @Test func encodesEveryValueAndDecodesThemBack() {
        let upstream = TestPublisher<Point, TestError>()
        let recorder = upstream.encode(encoder: JSONCoder()).decode(type: Point.self, decoder: JSONCoder()).record()
        upstream.send(Point(x: 1))
        upstream.send(Point(x: 2))
        upstream.send(completion: .finished)
        #expect(recorder.values == [Point(x: 1), Point(x: 2)])
        #expect(recorder.completions.count == 1)
    }

    @Test func encodesToTheEncodersOutput() {
        let recorder = Just(Point(x: 7)).encode(encoder: JSONCoder()).record()
        #expect(recorder.values.map { String(decoding: $0, as: UTF8.self) } == [#"{"x":7}"#])
    }

    @Test func anEncodingErrorCancelsUpstreamThenFails() {
        let upstream = TestPublisher<Int, TestError>()
        let recorder = upstream.encode(encoder: FailingEncoder()).record(
            initialDemand: .max(3), demandPerValue: .max(1))
        #expect(upstream.send(1) == .none)
        #expect(upstream.events == [.subscribe, .request(.max(3)), .cancel])
        #expect(recorder.trace == ["subscription", "failure(oops)"])
    }

    @Test func aDecodingErrorFailsTheStream() {
        let upstream = TestPublisher<Data, TestError>()
        let recorder = upstream.decode(type: Point.self, decoder: JSONCoder()).record()
        upstream.send(Data("not json".utf8))
        #expect(recorder.values.isEmpty)
        #expect(recorder.completions.count == 1)
        #expect(upstream.events == [.subscribe, .request(.unlimited), .cancel])
    }

    @Test func describesItselfAsCombinesDoes() {
        #expect(
            TestPublisher<Int, TestError>().encode(encoder: JSONCoder()).record().subscriptionDescriptions == ["Encode"]
        )
        #expect(
            TestPublisher<Data, TestError>().decode(type: Int.self, decoder: JSONCoder()).record()
                .subscriptionDescriptions == ["Decode"])
    }

    @Test func laws() {
        OperatorLaws.check { $0.encode(encoder: JSONCoder()) }
        OperatorLaws.check { $0.encode(encoder: JSONCoder()).decode(type: Int.self, decoder: JSONCoder()) }
    }
}
