// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    ///
    /// Encoding can fail: a thrown error cancels upstream and ends the stream.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// Decoding can fail: a thrown error cancels upstream and ends the stream.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that encodes the upstream's values with an encoder; a thrown error ends the stream.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates a publisher that encodes the values of `upstream` with `encoder`.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = encoder
            upstream.subscribe(
                StageSubscription(
                    "Encode", downstream: subscriber, family: .passingValuesAndCompletions,
                    reflect: { downstream, status in
                        [
                            ("downstream", downstream), ("finished", status == "terminal"),
                            ("upstreamSubscription", status),
                        ]
                    }, tryStep: { .emit(try encoder.encode($0)) }))
        }
    }

    /// A publisher that decodes the upstream's values with a decoder; a thrown error ends the stream.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates a publisher that decodes the values of `upstream` with `decoder`.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = decoder
            upstream.subscribe(
                StageSubscription(
                    "Decode", downstream: subscriber, family: .passingValuesAndCompletions,
                    reflect: { downstream, status in
                        [
                            ("downstream", downstream), ("finished", status == "terminal"),
                            ("upstreamSubscription", status),
                        ]
                    },
                    tryStep: {
                        .emit(try decoder.decode(Output.self, from: $0))
                    }))
        }
    }
}
