// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// Shrinking: greedy, one simplification at a time, keeping a candidate whenever it still fails.

extension Program {
    /// Simpler programs than this one, simplest changes first. Each is normalized.
    public var shrinkCandidates: [Program] {
        var out: [Program] = []
        func add(_ p: Program) {
            let n = p.normalized()
            if n != self { out.append(n) }
        }
        // Fewer operators.
        for i in ops.indices {
            var p = self
            p.ops.remove(at: i)
            add(p)
        }
        // Fewer steps.
        for i in steps.indices {
            var p = self
            p.steps.remove(at: i)
            add(p)
        }
        // Simpler subscribers; no second one.
        for script in subscriber.simpler {
            var p = self
            p.subscriber = script
            add(p)
        }
        if let second = secondSubscriber {
            var p = self
            p.secondSubscriber = nil
            add(p)
            for script in second.simpler {
                p.secondSubscriber = script
                add(p)
            }
        }
        // A simpler source.
        for s in source.simpler {
            var p = self
            p.source = s
            add(p)
        }
        // Simpler operator arguments.
        for i in ops.indices {
            for op in ops[i].simpler {
                var p = self
                p.ops[i] = op
                add(p)
            }
        }
        // Simpler steps.
        for i in steps.indices {
            if case .sendOther(let v) = steps[i], v != 0 {
                var p = self
                p.steps[i] = .sendOther(0)
                add(p)
            }
            if case .send(let v) = steps[i], v != 0 {
                var p = self
                p.steps[i] = .send(0)
                add(p)
            }
        }
        return out
    }

    /// Shrinks while `stillFails` holds, up to `budget` attempts.
    public func shrunk(budget: Int = 2_000, while stillFails: (Program) -> Bool) -> Program {
        var current = self
        var attempts = 0
        var improved = true
        while improved && attempts < budget {
            improved = false
            for candidate in current.shrinkCandidates {
                attempts += 1
                if stillFails(candidate) {
                    current = candidate
                    improved = true
                    break
                }
                if attempts >= budget { break }
            }
        }
        return current
    }
}

extension Source {
    var simpler: [Source] {
        switch self {
        case .sequence(let vs, let f):
            var out: [Source] = []
            for i in vs.indices {
                var copy = vs
                copy.remove(at: i)
                out.append(.sequence(copy, f))
            }
            for i in vs.indices where vs[i] != 0 {
                var copy = vs
                copy[i] = 0
                out.append(.sequence(copy, f))
            }
            if f == .error { out.append(.sequence(vs, .never)) }
            return out
        case .just(let v): return v == 0 ? [] : [.just(0)]
        case .deferred(let inner): return [inner] + inner.simpler.map { .deferred($0) }
        case .currentValue, .replay: return [.passthrough]
        case .currentValueRelay: return [.relay]
        default: return []
        }
    }
}

extension Op {
    var simpler: [Op] {
        switch self {
        case .append(let vs) where !vs.isEmpty: [.append(Array(vs.dropLast()))]
        case .prepend(let vs) where !vs.isEmpty: [.prepend(Array(vs.dropLast()))]
        case .dropFirst(let n) where n > 0: [.dropFirst(n - 1)]
        case .prefix(let n) where n > 0: [.prefix(n - 1)]
        case .retry(let n) where n > 0: [.retry(n - 1)]
        case .tryMap(let p, let f) where p != .never: [.tryMap(.never, f), .map(f)]
        case .tryScan(let i, let a, _): [.scan(i, a), .tryScan(i, a, .never)]
        case .compactMap(let p, let f) where p != .never: [.compactMap(.never, f), .map(f)]
        case .merge(let side) where side != .just(0): [.merge(.just(0))]
        case .zip(let side) where side != .just(0): [.zip(.just(0))]
        case .combineLatest(let side) where side != .just(0): [.combineLatest(.just(0))]
        case .withLatestFrom(let side) where side != .just(0): [.withLatestFrom(.just(0))]
        case .shareReplay: [.share]
        case .amb(let side) where side != .just(0): [.amb(.just(0))]
        case .zipWith(let side, let n):
            n > 1 ? [.zipWith(side, n - 1)] : (side != .just(0) ? [.zipWith(.just(0), n)] : [])
        case .combineLatestWith(let side, let n):
            n > 1 ? [.combineLatestWith(side, n - 1)] : (side != .just(0) ? [.combineLatestWith(.just(0), n)] : [])
        case .mergeMany(let side, let n): n > 0 ? [.mergeMany(side, n - 1)] : []
        case .flatMapBatches(let side, let n, let size):
            (n > 0 ? [.flatMapBatches(side, n - 1, size: size)] : [])
                + (size > 1 ? [.flatMapBatches(side, n, size: size - 1)] : [])
        case .nwise(let n) where n > 1: [.nwise(n - 1)]
        case .flatMap(let d, let inner) where inner != .just: [.flatMap(d, .just)]
        case .switchToLatest(let inner) where inner != .just: [.switchToLatest(.just)]
        case .timeout(let ms, true): [.timeout(ms, customError: false)]
        default: []
        }
    }
}

extension SubscriberScript {
    /// This script with one thing made simpler, for each thing that can be.
    var simpler: [SubscriberScript] {
        var out: [SubscriberScript] = []
        if reentrantRequest != nil {
            var s = self
            s.reentrantRequest = nil
            out.append(s)
        }
        if cancelAfterValues != nil {
            var s = self
            s.cancelAfterValues = nil
            out.append(s)
        }
        if initial != .unlimited {
            var s = self
            s.initial = .unlimited
            out.append(s)
        }
        if perValue != .none {
            var s = self
            s.perValue = .none
            out.append(s)
        }
        return out
    }
}
