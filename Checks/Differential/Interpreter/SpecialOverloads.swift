// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The overloads Swift would pick statically (`Just.map`, `Publishers.Sequence.filter`,
// `Publishers.Map.map`, ...), reproduced for the interpreter (Interpreter.swift) by dispatching on
// the dynamic type, following the table in SluicePrograms/StaticTypes.swift.

import SluicePrograms

#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif

/// A publisher type with its own overloads of some operators. `applySpecial` calls the overload
/// (resolved statically inside the conforming extension) and returns true, or returns false to
/// let the generic `Publisher` method apply. Must agree with `Op.specialResult(on:failure:)`.
protocol SpecialOverloads {
    func applySpecial(_ op: Op, _ next: Next) -> Bool
}

extension Just: SpecialOverloads where Output == Int {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .map(let f): next.go(map(f.apply))
        case .removeDuplicates: next.go(removeDuplicates())
        case .replaceError(let v): next.go(replaceError(with: v))
        case .replaceEmpty(let v): next.go(replaceEmpty(with: v))
        case .count: next.go(count())
        case .min: next.go(min())
        case .max: next.go(max())
        case .first: next.go(first())
        case .last: next.go(last())
        case .retry(let n): next.go(retry(n))
        case .filter(let pr): next.go(filter(pr.test))
        case .compactMap(let pr, let f): next.go(compactMap(optional(pr, f)))
        case .tryMap(let pr, let f): next.go(tryMap(throwing(pr, f)))
        case .scan(let i, let a): next.go(scan(i, a.apply))
        case .tryScan(let i, let a, let pr): next.go(tryScan(i, throwingAccumulator(a, pr)))
        case .mapError: next.go(mapError(swapError))
        case .setFailureType: next.go(setFailureType(to: (any Error).self))
        case .firstWhere(let pr): next.go(first(where: pr.test))
        case .dropFirst(let n): next.go(dropFirst(n))
        case .dropWhile(let pr): next.go(drop(while: pr.test))
        case .prefix(let n): next.go(prefix(n))
        case .prefixWhile(let pr): next.go(prefix(while: pr.test))
        case .outputAt(let n): next.go(output(at: n))
        case .outputIn(let a, let b): next.go(output(in: a...b))
        case .reduce(let i, let a): next.go(reduce(i, a.apply))
        case .append(let vs): next.go(append(vs))
        case .prepend(let vs): next.go(prepend(vs))
        default: return false
        }
        return true
    }
}

extension Publishers.Sequence: SpecialOverloads where Elements == [Int] {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .map(let f): next.go(map(f.apply))
        case .filter(let pr): next.go(filter(pr.test))
        case .compactMap(let pr, let f): next.go(compactMap(optional(pr, f)))
        case .removeDuplicates: next.go(removeDuplicates())
        case .scan(let i, let a): next.go(scan(i, a.apply))
        case .prefixWhile(let pr): next.go(prefix(while: pr.test))
        case .append(let vs): next.go(append(vs))
        case .prepend(let vs): next.go(prepend(vs))
        case .setFailureType: next.go(setFailureType(to: (any Error).self))
        case .dropFirst(let n): next.go(dropFirst(n))
        case .dropWhile(let pr): next.go(drop(while: pr.test))
        case .prefix(let n): next.go(prefix(n))
        case .reduce(let i, let a): next.go(reduce(i, a.apply))
        case .count:
            if let never = self as? Publishers.Sequence<[Int], Never> {
                next.go(never.count())
            } else {
                next.go(count())
            }
        case .min, .max, .first, .last, .firstWhere, .outputAt:
            guard let never = self as? Publishers.Sequence<[Int], Never> else { return false }
            return never.applyNeverOnly(op, next)
        default: return false
        }
        return true
    }
}

extension Publishers.Sequence where Elements == [Int], Failure == Never {
    func applyNeverOnly(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .min: next.go(min())
        case .max: next.go(max())
        case .first: next.go(first())
        case .last: next.go(last())
        case .firstWhere(let pr): next.go(first(where: pr.test))
        case .outputAt(let n): next.go(output(at: n))
        default: return false
        }
        return true
    }
}

extension Publishers.Map: SpecialOverloads where Output == Int {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .map(let f): next.go(map(f.apply))
        case .tryMap(let pr, let f): next.go(tryMap(throwing(pr, f)))
        default: return false
        }
        return true
    }
}

extension Publishers.TryMap: SpecialOverloads where Output == Int {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .map(let f): next.go(map(f.apply))
        case .tryMap(let pr, let f): next.go(tryMap(throwing(pr, f)))
        default: return false
        }
        return true
    }
}

extension Publishers.Filter: SpecialOverloads where Upstream.Output == Int {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        guard case .filter(let pr) = op else { return false }
        next.go(filter(pr.test))
        return true
    }
}

extension Publishers.CompactMap: SpecialOverloads where Output == Int {
    func applySpecial(_ op: Op, _ next: Next) -> Bool {
        switch op {
        case .compactMap(let pr, let f): next.go(compactMap(optional(pr, f)))
        case .map(let f): next.go(map(f.apply))
        default: return false
        }
        return true
    }
}
