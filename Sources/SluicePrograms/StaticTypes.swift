// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Overload resolution, modelled. A printed program is a plain chain, so Swift picks the most
// specific overload for each call from the static type of its receiver: `Just.map` returns a
// `Just`, `Publishers.Sequence.filter` a `Publishers.Sequence`, `Publishers.Map.map` composes.
// The interpreter reproduces that choice by dispatching on the dynamic type (which, in a chain,
// is the static type); this file is the shared table of which calls have such an overload and
// what type they produce. Where the interpreter does not reproduce an overload, `normalized()`
// puts an `.eraseToAnyPublisher()` first, so that printed and interpreted programs are the same
// program call for call.

/// The static type of a stage, as far as overload resolution cares.
public enum StageKind: Hashable, Sendable {
    /// `Publishers.Sequence<[Int], F>`
    case sequenceOfArray
    /// `Just<Int>`
    case just
    /// `Publishers.Map`, `Publishers.TryMap`, `Publishers.Filter`, `Publishers.CompactMap`
    case map, tryMap, filter, compactMap
    /// A type with overloads the interpreter does not reproduce (`Optional.Publisher`,
    /// `Result.Publisher`, `Publishers.Sequence<DropFirstSequence<..>>`, `SetFailureType`):
    /// every following operator is applied to an erased upstream.
    case eagerOther
    /// A type no operator of the language has an overload for.
    case plain

    static func of(_ source: Source) -> StageKind {
        switch source {
        case .just: .just
        case .sequence: .sequenceOfArray
        default: .plain
        }
    }
}

extension Op {
    /// The kind after this operator when it resolves to an overload the interpreter reproduces;
    /// `nil` when it resolves to the generic `Publisher` extension method.
    public func specialResult(on kind: StageKind, failure: FailureKind) -> StageKind? {
        switch kind {
        case .just:
            switch self {
            case .map, .removeDuplicates, .replaceError, .replaceEmpty, .count, .min, .max,
                .first, .last, .retry:
                return .just
            case .filter, .compactMap, .tryMap, .scan, .tryScan, .mapError, .setFailureType,
                .firstWhere, .dropFirst, .dropWhile, .prefix, .prefixWhile, .outputAt, .outputIn,
                .reduce:
                return .eagerOther
            case .append, .prepend: return .sequenceOfArray
            default: return nil
            }
        case .sequenceOfArray:
            switch self {
            // `output(in:)` is written with a closed range, which only the generic method takes
            // (the eager one takes `Range<Int>` and traps when it is out of bounds).
            case .map, .filter, .compactMap, .removeDuplicates, .scan, .prefixWhile,
                .append, .prepend, .setFailureType:
                return .sequenceOfArray
            case .dropFirst, .dropWhile, .prefix, .reduce: return .eagerOther
            case .count: return failure == .never ? .just : .eagerOther
            case .min, .max, .first, .last, .firstWhere, .outputAt:
                return failure == .never ? .eagerOther : nil
            default: return nil
            }
        case .map:
            switch self {
            case .map: return .map
            case .tryMap: return .tryMap
            default: return nil
            }
        case .tryMap:
            switch self {
            case .map, .tryMap: return .tryMap
            default: return nil
            }
        case .filter:
            if case .filter = self { return .filter }
            return nil
        case .compactMap:
            switch self {
            case .compactMap, .map: return .compactMap
            default: return nil
            }
        case .eagerOther, .plain:
            return nil
        }
    }

    /// The kind after this operator when it resolves to the generic method.
    var genericResult: StageKind {
        switch self {
        case .map: .map
        case .tryMap: .tryMap
        case .filter: .filter
        case .compactMap: .compactMap
        default: .plain
        }
    }
}

extension Program {
    /// The same program with an `.erase` wherever the next call would resolve to an overload the
    /// interpreter does not reproduce, and with every operator that would not typecheck
    /// (`setFailureType` on a failing stage) removed. Idempotent.
    public func normalized() -> Program {
        var out: [Op] = []
        var kind = StageKind.of(source)
        var failure = source.failure
        for original in ops {
            let op = original.typechecked(failure: failure)
            if case .setFailureType = op, failure != .never { continue }
            if case .erase = op {
                if kind == .plain, out.last == .erase { continue }
                out.append(.erase)
                kind = .plain
                continue
            }
            let needsErase: Bool =
                switch kind {
                case .eagerOther: true
                case .plain: false
                default: op.isCompound
                }
            if needsErase {
                out.append(.erase)
                kind = .plain
            }
            kind = op.specialResult(on: kind, failure: failure) ?? op.genericResult
            failure = op.failure(after: failure)
            out.append(op)
        }
        var copy = self
        copy.ops = out
        let driven = source.isDriven
        let usesOther = copy.usesOther
        let usesScheduler = copy.usesScheduler
        copy.steps = steps.filter {
            switch $0 {
            case .send, .finish, .fail: driven
            case .sendOther, .finishOther, .failOther: usesOther
            case .advance: usesScheduler
            case .request, .cancel: true
            }
        }
        return copy
    }
}

extension Op {
    /// The operator as it can be written on a stage with failure type `failure`: on a `Never`
    /// stage nothing can fail with `TestError.other`, so those choices become their harmless twin.
    func typechecked(failure: FailureKind) -> Op {
        guard failure == .never else { return self }
        switch self {
        case .flatMap(let d, .fail): return .flatMap(d, .empty)
        case .switchToLatest(.fail): return .switchToLatest(.empty)
        case .buffer(let n, let keepFull, .customError): return .buffer(n, keepFull: keepFull, .dropNewest)
        case .timeout(let ms, true): return .timeout(ms, customError: false)
        default: return self
        }
    }
}
