// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import SluicePrograms

// merge, zip and combineLatest in the interpreter: their second publisher (`Side`), typed when it
// is a `Just` or a sequence, as the printed program has it.
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceTesting
import SluiceReferenceExt
#else
import Sluice
import SluiceTesting
import SluiceExt
#endif

/// The second publisher of merge/zip/combineLatest with the stage's failure type (erased: it is
/// the other upstream, not the chain under test).
func side<F: Error>(_ s: Side, _ run: ProgramRun, failing: F.Type) -> AnyPublisher<Int, F> {
    let never: AnyPublisher<Int, Never>
    let failing: AnyPublisher<Int, any Error>
    switch s {
    case .just(let v):
        never = Just(v).eraseToAnyPublisher()
        failing = Just(v).setFailureType(to: (any Error).self).eraseToAnyPublisher()
    case .sequence(let vs):
        never = vs.publisher.eraseToAnyPublisher()
        failing = Publishers.Sequence<[Int], any Error>(sequence: vs).eraseToAnyPublisher()
    case .other:
        never = run.other.replaceError(with: -1).eraseToAnyPublisher()
        failing = run.other.eraseToAnyPublisher()
    }
    if let typed = never as? AnyPublisher<Int, F> { return typed }
    guard let typed = failing as? AnyPublisher<Int, F> else { fatalError("no side for failure \(F.self)") }
    return typed
}

/// merge, zip or combineLatest of `p` and `side`.
@_semantics("optimize.sil.specialize.generic.never")
func combine<P: Publisher, S: Publisher>(_ op: Op, _ p: P, _ side: S, _ next: Next)
where P.Output == Int, S.Output == Int, S.Failure == P.Failure {
    switch op {
    case .merge: next.go(p.merge(with: side))
    case .zip: next.go(p.zip(side).map { $0.0 &* 100 &+ $0.1 })
    case .combineLatest: next.go(p.combineLatest(side).map { $0.0 &* 100 &+ $0.1 })
    case .withLatestFrom: next.go(p.withLatestFrom(side) { $0 &* 100 &+ $1 })
    default: fatalError("not a combining operator: \(op)")
    }
}

/// `combine` with a `Just` or sequence side of its own type, as the printed program has it: over
/// a synchronous upstream the fused forms run.
@_semantics("optimize.sil.specialize.generic.never")
func combineTyped<P: Publisher>(_ op: Op, _ p: P, _ side: Side, _ next: Next)
where P.Output == Int, P.Failure == Never {
    switch side {
    case .just(let v): combine(op, p, Just(v), next)
    case .sequence(let vs): combine(op, p, vs.publisher, next)
    case .other: fatalError("the other subject is not typed")
    }
}

@_semantics("optimize.sil.specialize.generic.never")
func combineTyped<P: Publisher>(_ op: Op, _ p: P, _ side: Side, _ next: Next)
where P.Output == Int, P.Failure == any Error {
    switch side {
    case .just(let v): combine(op, p, Just(v).setFailureType(to: (any Error).self), next)
    case .sequence(let vs): combine(op, p, Publishers.Sequence<[Int], any Error>(sequence: vs), next)
    case .other: fatalError("the other subject is not typed")
    }
}

/// SluiceExt's operators over a collection of publishers: `p` with `others`.
@_semantics("optimize.sil.specialize.generic.never")
func combineMany<P: Publisher>(_ op: Op, _ p: P, _ others: [AnyPublisher<Int, P.Failure>], _ next: Next)
where P.Output == Int {
    switch op {
    case .zipWith: next.go(p.zip(with: others).map(encodeCollected))
    case .combineLatestWith: next.go(p.combineLatest(with: others).map(encodeCollected))
    case .mergeMany: next.go(([p.eraseToAnyPublisher()] + others).merge())
    case .flatMapBatches(_, _, let size):
        next.go(([p.eraseToAnyPublisher()] + others).flatMapBatches(of: size).map(encodeCollected))
    default: fatalError("not an operator over many publishers: \(op)")
    }
}
