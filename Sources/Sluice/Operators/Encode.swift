// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    ///
    /// Encoding can fail: a thrown error cancels upstream and ends the stream.
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// Decoding can fail: a thrown error cancels upstream and ends the stream.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that encodes the upstream's values with an encoder; a thrown error ends the stream.
    @frozen
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: _Runtime.StageOperator
    where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        @usableFromInline let encoder: Coder

        /// Creates a publisher that encodes the values of `upstream` with `encoder`.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.EncodeStage(encoder: encoder)
        }
    }

    /// A publisher that decodes the upstream's values with a decoder; a thrown error ends the stream.
    @frozen
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: _Runtime.StageOperator
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        @usableFromInline let decoder: Coder

        /// Creates a publisher that decodes the values of `upstream` with `decoder`.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        @inlinable @inline(__always)
        public func _makeStage() -> some _Runtime.Stage<Upstream.Output, Output, Upstream.Failure, Failure> {
            _Runtime.DecodeStage(decoder: decoder)
        }
    }
}

extension _Runtime {
    /// The stage of `encode`: a value goes through the encoder; a throw fails the chain.
    @frozen
    @usableFromInline
    struct EncodeStage<Input: Encodable, Coder: TopLevelEncoder, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @usableFromInline typealias Output = Coder.Output
        @usableFromInline let encoder: Coder

        @inlinable @inline(__always) init(encoder: Coder) { self.encoder = encoder }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, any Error> {
            .catching { .value(try encoder.encode(input)) }
        }

        @inlinable static var _description: _Runtime.StageDescription { .init("Encode", edges: .coding) }

        @usableFromInline func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("finished", status == "terminal"), ("upstreamSubscription", status)]
        }
    }
}

extension _Runtime {
    /// The stage of `decode`: a value goes through the decoder; a throw fails the chain.
    @frozen
    @usableFromInline
    struct DecodeStage<Output: Decodable, Coder: TopLevelDecoder, UpstreamFailure: Error>: _Runtime.ThrowingStage {
        @usableFromInline typealias Input = Coder.Input
        @usableFromInline let decoder: Coder

        @inlinable @inline(__always) init(decoder: Coder) { self.decoder = decoder }

        @inlinable @inline(__always)
        mutating func step(_ input: Input) -> _Runtime.StageStep<Output, any Error> {
            .catching { .value(try decoder.decode(Output.self, from: input)) }
        }

        @inlinable static var _description: _Runtime.StageDescription { .init("Decode", edges: .coding) }

        @usableFromInline func _children(downstream: Any, status: String) -> [Mirror.Child] {
            [("downstream", downstream), ("finished", status == "terminal"), ("upstreamSubscription", status)]
        }
    }
}
