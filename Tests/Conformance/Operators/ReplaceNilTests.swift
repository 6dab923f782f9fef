// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Testing

@Suite struct ReplaceNilTests {
    @Test func replacesEachNilAndKeepsOtherValues() {
        let upstream = TestPublisher<Int?, TestError>()
        let replaced: Publishers.Map<TestPublisher<Int?, TestError>, Int> = upstream.replaceNil(with: 42)
        let recorder = replaced.record()
        upstream.send(1)
        upstream.send(nil)
        upstream.send(4)
        upstream.send(nil)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(42), .value(4), .value(42), .finished])
    }

    @Test func failureAndDemandPassThrough() {
        let upstream = TestPublisher<String?, TestError>()
        let recorder = upstream.replaceNil(with: "-").record(initialDemand: .max(1), demandPerValue: .max(2))
        #expect(upstream.send(nil) == .max(2))
        upstream.send(completion: .failure(.other))
        #expect(recorder.events == [.subscription, .value("-"), .failure(.other)])
        #expect(upstream.events == [.subscribe, .request(.max(1))])
    }

    @Test func limitedDemand() {
        let recorder = [nil, 2, nil].publisher.replaceNil(with: 0).record(initialDemand: .max(2))
        #expect(recorder.values == [0, 2])
        #expect(recorder.completions.isEmpty)
    }

    @Test func laws() {
        OperatorLaws.checkPassThrough { $0.map { $0 == 2 ? nil : $0 }.replaceNil(with: 0) }
    }
}
