// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import ScenariosSluice

/// The floor of the app pipelines (A1–A7): the same logic as Apps.swift, written as an app without
/// Combine would write it, with closures, `didSet` and a cached latest value. Each returns what its
/// pipeline returns.
enum Callbacks {
    /// A running total that closures capture (as the pipelines' `Total`).
    final class Total {
        var sum = 0
    }

    // MARK: A1

    /// The form with `didSet`: each field revalidates, and a change of validity calls the view.
    final class SignUpForm {
        var username = "" { didSet { revalidate() } }
        var password = "" { didSet { revalidate() } }
        var accepted = false { didSet { revalidate() } }
        private(set) var isValid = false { didSet { onValidity?(isValid) } }
        /// The view's callback: called with the validity at once, then at each change.
        var onValidity: ((Bool) -> Void)? { didSet { onValidity?(isValid) } }

        private func revalidate() {
            let valid = AppLogic.validate(username, password, accepted)
            if valid != isValid { isValid = valid }
        }
    }

    @inline(never)
    static func formEdits(_ edits: Int) -> Int {
        let form = SignUpForm()
        let shown = Total()
        form.onValidity = { shown.sum &+= AppLogic.shown($0) }
        for index in 0..<edits {
            switch AppLogic.field(index) {
            case 0: form.username = AppLogic.usernames[AppLogic.choice(index)]
            case 1: form.password = AppLogic.passwords[AppLogic.choice(index)]
            default: form.accepted = AppLogic.accepted(index)
            }
        }
        form.onValidity = nil
        return shown.sum
    }

    // MARK: A2, A3

    /// A text field: what the user types goes to its change handler.
    final class TextField {
        var onChange: (String) -> Void = { _ in }
    }

    /// A search controller that keeps the latest query's generation and drops stale answers.
    final class Search {
        private var generation = 0
        let results = Total()

        func synchronous(_ query: String) {
            generation &+= 1
            results.sum &+= AppLogic.lookup(query)
        }

        func asynchronous(_ query: String) {
            generation &+= 1
            let asked = generation
            Search.lookup(query) { [unowned self] count in
                guard asked == self.generation else { return }
                self.results.sum &+= count
            }
        }

        /// A lookup with a completion handler, here answered at once.
        @inline(never)
        static func lookup(_ query: String, completion: @escaping (Int) -> Void) {
            completion(AppLogic.lookup(query))
        }
    }

    @inline(never)
    static func searchSynchronous(_ sends: Int) -> Int { type(sends) { search in { search.synchronous($0) } } }

    @inline(never)
    static func searchAsynchronous(_ sends: Int) -> Int { type(sends) { search in { search.asynchronous($0) } } }

    /// Types `sends` queries into a text field whose change handler `handler` makes for the search.
    @inline(__always)
    private static func type(_ sends: Int, _ handler: (Search) -> (String) -> Void) -> Int {
        let search = Search()
        let field = TextField()
        field.onChange = handler(search)
        for index in 0..<sends { field.onChange(AppLogic.queries[index % AppLogic.queries.count]) }
        return search.results.sum
    }

    // MARK: A4

    @inline(never)
    static func eventBus(_ sends: Int) -> Int {
        let received = Total()
        var listeners: [(AppEvent) -> Void] = []
        for subscriber in 0..<16 {
            let kind = AppLogic.kind(ofSubscriber: subscriber)
            listeners.append { event in if event.kind == kind { received.sum &+= event.payload } }
        }
        for index in 0..<sends {
            let event = AppEvent(kind: index & 3, payload: index)
            for listener in listeners { listener(event) }
        }
        listeners.removeAll()
        return received.sum
    }

    // MARK: A5

    /// One request, started by its first caller; its response goes to every caller waiting.
    final class SharedRequest {
        private var waiting: [(Int) -> Void] = []
        private var started = false
        private let start: (@escaping (Int) -> Void) -> Void

        init(start: @escaping (@escaping (Int) -> Void) -> Void) {
            self.start = start
        }

        func get(_ callback: @escaping (Int) -> Void) {
            waiting.append(callback)
            guard !started else { return }
            started = true
            start { [self] response in
                let callbacks = waiting
                waiting = []
                for callback in callbacks { callback(response &* 2) }
            }
        }
    }

    @inline(never)
    static func sharedRequests(_ lifecycles: Int) -> Int {
        final class Network {
            var respond: ((Int) -> Void)?
        }
        let network = Network()
        let shown = Total()
        for index in 0..<lifecycles {
            let request = SharedRequest { network.respond = $0 }
            request.get { shown.sum &+= $0 }
            request.get { shown.sum &+= $0 &+ 1 }
            request.get { shown.sum &+= $0 &+ 2 }
            network.respond?(index)
            network.respond = nil
        }
        return shown.sum
    }

    // MARK: A6

    @inline(never)
    static func batchedRequests(_ sends: Int) -> Int {
        let total = Total()
        var batch: [Int] = []
        batch.reserveCapacity(10)
        let deliver = { (batch: [Int]) in total.sum &+= batch.count &+ batch.reduce(0, &+) }
        /// The request, answered at once.
        let request = { (id: Int, completion: (Int) -> Void) in completion(id &* 2) }
        for id in 0..<sends {
            request(id) { result in
                batch.append(result)
                if batch.count == 10 {
                    deliver(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { deliver(batch) }
        return total.sum
    }

    // MARK: A7

    /// A model's observers, added and removed by token.
    final class Observers {
        private var observers: [(token: Int, call: (Int) -> Void)] = []
        private var nextToken = 0

        func add(_ call: @escaping (Int) -> Void) -> Int {
            nextToken &+= 1
            observers.append((nextToken, call))
            return nextToken
        }

        func remove(_ token: Int) { observers.removeAll { $0.token == token } }

        func send(_ value: Int) {
            for observer in observers { observer.call(value) }
        }
    }

    @inline(never)
    static func screenLifecycles(_ lifecycles: Int) -> Int {
        let model = Observers()
        let shown = Total()
        for index in 0..<lifecycles {
            var last: Int?
            let token = model.add { value in
                let rendered = AppLogic.render(value)
                guard AppLogic.isShown(rendered), rendered != last else { return }
                last = rendered
                shown.sum &+= rendered
            }
            model.send(index)
            model.remove(token)
        }
        return shown.sum
    }
}
