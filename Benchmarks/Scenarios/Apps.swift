// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// The app pipelines (A1–A7): what a view model builds, written as an app writes them, each beside
// its twin written with plain callbacks (`Callbacks` in SluiceBenchmarks, the floor). Compiled
// against each implementation, as Scenarios.swift; `AppLogic` is the work both sides share.
#if SLUICE
import Sluice
#elseif SLUICE_REFERENCE
import SluiceReference
#elseif OPENCOMBINE
import OpenCombine
#endif

/// What an app does between its pipelines' stages, the same for the pipelines and their twins.
public enum AppLogic {
    /// The form's fields at edit `index`: which field changes (0, 1, 2) and to what.
    public static let usernames = ["", "al", "alice"]
    public static let passwords = ["", "short", "longenough"]

    @inline(__always)
    public static func field(_ index: Int) -> Int { index % 3 }

    @inline(__always)
    public static func choice(_ index: Int) -> Int { (index / 3) % 3 }

    @inline(__always)
    public static func accepted(_ index: Int) -> Bool { (index / 3) & 1 == 0 }

    /// The form's rule.
    @inline(never)
    public static func validate(_ username: String, _ password: String, _ accepted: Bool) -> Bool {
        username.utf8.count >= 3 && password.utf8.count >= 8 && accepted
    }

    /// What the form's view does with each validity it is shown.
    @inline(__always)
    public static func shown(_ valid: Bool) -> Int { valid ? 3 : 1 }

    /// A search's queries, as typed.
    public static let queries = ["s", "sw", "swi", "swif", "swift", "swif", "swi", "sl", "slu", "sluice"]

    /// A synchronous lookup: the number of results for `query`.
    @inline(never)
    public static func lookup(_ query: String) -> Int {
        query.utf8.count &* 31 &+ Int(query.utf8.first ?? 0)
    }

    /// The event bus's subscribers: subscriber `index` listens to the kind it returns.
    @inline(__always)
    public static func kind(ofSubscriber index: Int) -> Int { index & 3 }

    /// The screen's transform of what it is fed: a rendering, and whether it is shown.
    @inline(__always)
    public static func render(_ value: Int) -> Int { value &* 2 }

    @inline(__always)
    public static func isShown(_ rendered: Int) -> Bool { rendered % 3 != 0 }
}

/// An event on the bus.
public struct AppEvent: Sendable {
    public let kind: Int
    public let payload: Int

    public init(kind: Int, payload: Int) {
        self.kind = kind
        self.payload = payload
    }
}

// MARK: A1. A form view model

/// A sign-up form: three fields a view binds, and whether the form can be sent, derived by a
/// pipeline and assigned back to a published property that the view's button observes.
final class SignUpForm: ObservableObject {
    #if OPENCOMBINE
    enum Edit {
        case username(String)
        case password(String)
        case accepted(Bool)
    }
    #endif

    @Published var username = ""
    @Published var password = ""
    @Published var accepted = false
    @Published var isValid = false

    init() {
        #if OPENCOMBINE
        // OpenCombine 0.14.0 has neither combineLatest nor merge: the fields' edits flattened into
        // one stream, and the latest of each kept by a scan.
        [
            $username.map { Edit.username($0) }.eraseToAnyPublisher(),
            $password.map { Edit.password($0) }.eraseToAnyPublisher(),
            $accepted.map { Edit.accepted($0) }.eraseToAnyPublisher(),
        ].publisher.flatMap { $0 }
            .scan(("", "", false)) { fields, edit in
                switch edit {
                case .username(let username): (username, fields.1, fields.2)
                case .password(let password): (fields.0, password, fields.2)
                case .accepted(let accepted): (fields.0, fields.1, accepted)
                }
            }
            .map { AppLogic.validate($0.0, $0.1, $0.2) }
            .removeDuplicates()
            .assign(to: &$isValid)
        #else
        Publishers.CombineLatest3($username, $password, $accepted)
            .map(AppLogic.validate)
            .removeDuplicates()
            .assign(to: &$isValid)
        #endif
    }
}

/// Makes `edits` edits to the form (one field set each); the view sums what it is shown.
@inline(never)
public func formEdits(_ edits: Int) -> Int {
    let form = SignUpForm()
    let shown = Total()
    let button = form.$isValid.sink { shown.sum &+= AppLogic.shown($0) }
    for index in 0..<edits {
        switch AppLogic.field(index) {
        case 0: form.username = AppLogic.usernames[AppLogic.choice(index)]
        case 1: form.password = AppLogic.passwords[AppLogic.choice(index)]
        default: form.accepted = AppLogic.accepted(index)
        }
    }
    button.cancel()
    return shown.sum
}

// MARK: A2, A3. Search as you type

/// Each query's results replace the last one's: over a synchronous lookup (`Just`).
@inline(never)
public func searchSynchronous(_ sends: Int) -> Int {
    let query = PassthroughSubject<String, Never>()
    let results = Total()
    let token = query.map { Just(AppLogic.lookup($0)) }.switchToLatest().sink { results.sum &+= $0 }
    for index in 0..<sends { query.send(AppLogic.queries[index % AppLogic.queries.count]) }
    token.cancel()
    return results.sum
}

/// The same over an asynchronous lookup's API (`Deferred { Future }`), here answered at once.
@inline(never)
public func searchFuture(_ sends: Int) -> Int {
    let query = PassthroughSubject<String, Never>()
    let results = Total()
    let token =
        query
        .map { query in Deferred { Future<Int, Never> { promise in promise(.success(AppLogic.lookup(query))) } } }
        .switchToLatest()
        .sink { results.sum &+= $0 }
    for index in 0..<sends { query.send(AppLogic.queries[index % AppLogic.queries.count]) }
    token.cancel()
    return results.sum
}

// MARK: A4. An event bus

/// Sixteen subscribers, each taking one kind of event's payload.
@inline(never)
public func eventBus(_ sends: Int) -> Int {
    let bus = PassthroughSubject<AppEvent, Never>()
    let received = Total()
    let tokens = (0..<16).map { subscriber in
        let kind = AppLogic.kind(ofSubscriber: subscriber)
        return bus.filter { $0.kind == kind }.map(\.payload).sink { received.sum &+= $0 }
    }
    for index in 0..<sends { bus.send(AppEvent(kind: index & 3, payload: index)) }
    for token in tokens { token.cancel() }
    return received.sum
}

// MARK: A5. A request shared by three views

/// A request whose response arrives later, shared by three views: per lifecycle, the request is
/// built, three views subscribe, the response arrives, and the views go away.
@inline(never)
public func sharedRequests(_ lifecycles: Int) -> Int {
    final class Network {
        var respond: ((Result<Int, Never>) -> Void)?
    }
    let network = Network()
    let shown = Total()
    for index in 0..<lifecycles {
        let request = Deferred { Future<Int, Never> { network.respond = $0 } }.map { $0 &* 2 }.share()
        let views = [
            request.sink { shown.sum &+= $0 },
            request.sink { shown.sum &+= $0 &+ 1 },
            request.sink { shown.sum &+= $0 &+ 2 },
        ]
        network.respond?(.success(index))
        network.respond = nil
        for view in views { view.cancel() }
    }
    return shown.sum
}

// MARK: A6. Requests in flight, four at a time, in batches of ten

/// Each id sent becomes a request (answered at once), at most four in flight; the results arrive in
/// batches of ten, and the last, shorter batch at the end.
@inline(never)
public func batchedRequests(_ sends: Int) -> Int {
    let ids = PassthroughSubject<Int, Never>()
    let total = Total()
    let token = ids.flatMap(maxPublishers: .max(4)) { Just($0 &* 2) }.collect(10)
        .sink { batch in total.sum &+= batch.count &+ batch.reduce(0, &+) }
    for id in 0..<sends { ids.send(id) }
    ids.send(completion: .finished)
    token.cancel()
    return total.sum
}

// MARK: A7. A screen's lifecycle

/// A screen comes, observes a model's subject through a small chain, is fed once, and goes.
@inline(never)
public func screenLifecycles(_ lifecycles: Int) -> Int {
    let model = PassthroughSubject<Int, Never>()
    let shown = Total()
    for index in 0..<lifecycles {
        let screen = model.map(AppLogic.render).filter(AppLogic.isShown).removeDuplicates()
            .sink { shown.sum &+= $0 }
        model.send(index)
        screen.cancel()
    }
    return shown.sum
}
