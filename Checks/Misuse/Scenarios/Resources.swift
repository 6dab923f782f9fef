// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Dispatch
import Foundation
import MisuseKit

#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif

/// Lifetimes and resources under misuse: a future promised twice or after a cancel, a subject freed
/// while another thread sends, a producer far faster than its consumer, malformed input.
func resources() -> [MisuseScenario] {
    [
        MisuseScenario("a Future promised twice", .clean) {
            let recorder = Recorder<Int, Never>()
            Future<Int, Never> { promise in
                promise(.success(1))
                promise(.success(2))
            }.subscribe(recorder)
            expectStream(recorder, "future", values: [1], finished: true)
        },
        MisuseScenario("a Future promised from another thread after a cancel", .clean) {
            nonisolated(unsafe) var promise: Future<Int, Never>.Promise?
            let future = Future<Int, Never> { promise = $0 }
            let recorder = Recorder<Int, Never>()
            future.subscribe(recorder)
            recorder.cancel()
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let fulfil = promise!
            Thread {
                fulfil(.success(1))
                fulfil(.success(2))
                done.signal()
            }.start()
            done.wait()
            expectStream(recorder, "future after cancel", values: [])
            MisuseCheck.expect(recorder.completions.isEmpty, "a completion after the cancel")
        },
        MisuseScenario("a subject freed while another thread sends", .clean) {
            for _ in 0..<200 {
                nonisolated(unsafe) var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
                nonisolated(unsafe) weak let weakSubject = subject
                let inbox = Inbox<Int>()
                var cancellable: AnyCancellable? = subject!.sink { inbox.add($0) }
                let started = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                Thread {
                    var sent = 0
                    while let subject = weakSubject {
                        subject.send(sent)
                        sent += 1
                        if sent == 10 { started.signal() }
                    }
                    if sent < 10 { started.signal() }
                    done.signal()
                }.start()
                started.wait()
                subject = nil
                cancellable = nil
                done.wait()
                withExtendedLifetime(cancellable) {}
            }
        },
        MisuseScenario(
            "receive(on:) with a producer far faster than a .max(1) consumer", .boundedMemory(megabytes: 200)
        ) {
            let subject = PassthroughSubject<Int, Never>()
            let queue = DispatchQueue(label: "consumer")
            let consumer = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
            subject.receive(on: queue).subscribe(consumer)
            for value in 0..<3_000_000 { subject.send(value) }
            subject.send(completion: .finished)
            MisuseCheck.eventually(within: 60, "the completion") { consumer.isComplete }
            expectStream(consumer, "slow consumer", finished: true)
        },
        MisuseScenario("malformed JSON into decode", .clean) {
            let recorder = Recorder<[Int], any Error>()
            Just(Data("{\"not\": [1, 2".utf8)).decode(type: [Int].self, decoder: JSONDecoder()).subscribe(recorder)
            MisuseCheck.expect(recorder.values.isEmpty, "a value from malformed JSON")
            guard case .failure(let error)? = recorder.completions.first, error is DecodingError else {
                MisuseCheck.fail("expected a DecodingError, got \(recorder.completions)")
            }
        },
    ]
}
