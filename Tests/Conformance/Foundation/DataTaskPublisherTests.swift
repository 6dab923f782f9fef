// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import FlyingFox
import FlyingSocks
import Foundation
import Testing

// URLSession.DataTaskPublisher against a real HTTP server (FlyingFox) on 127.0.0.1, on a port the
// kernel picks at run time. Every wait is bounded: nothing here can hang, nothing leaves the machine.
#if SLUICE_REFERENCE
import SluiceReference
import SluiceReferenceFoundation
#else
import Sluice
import SluiceFoundation
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Helpers are nested in the suite so that their short names never clash with the rest of the module.
extension DataTaskPublisherTests {
    /// How long a test waits for something that should happen: generous, and still bounded.
    static let patience = 5.0
    /// How long a test waits for its loopback server to listen. The whole test run can stall for
    /// half a minute on a loaded two-core machine (CI saw every test pause for 30 s while the
    /// stress tests ran), and a server that listens at once makes the wait cost nothing.
    static let serverStartup = 60.0
    /// How long a test waits for something that must not happen before it concludes that it did not.
    fileprivate static let grace = 0.3

    // MARK: - Waiting without sleeping

    /// A one-shot event that any thread may fire and any task may await, with a timeout.
    final class Signal: @unchecked Sendable {
        private let lock = NSLock()
        private var fired = false
        private var waiters: [Int: (CheckedContinuation<Bool, Never>, Task<Void, Never>?)] = [:]
        private var nextID = 0

        func fire() {
            lock.lock()
            fired = true
            let waiting = waiters.values
            waiters = [:]
            lock.unlock()
            for (continuation, timer) in waiting {
                timer?.cancel()
                continuation.resume(returning: true)
            }
        }

        /// True as soon as the signal fires; false if `seconds` pass first.
        func wait(seconds: Double) async -> Bool {
            await withCheckedContinuation { continuation in
                lock.lock()
                if fired {
                    lock.unlock()
                    return continuation.resume(returning: true)
                }
                let id = nextID
                nextID += 1
                waiters[id] = (continuation, nil)
                // The timer's `timeOut` takes the lock, so it cannot run before the timer is stored.
                waiters[id]?.1 = Task {
                    try? await Task.sleep(for: .seconds(seconds))
                    self.timeOut(id)
                }
                lock.unlock()
            }
        }

        private func timeOut(_ id: Int) {
            lock.lock()
            let waiter = waiters.removeValue(forKey: id)
            lock.unlock()
            waiter?.0.resume(returning: false)
        }
    }

    // MARK: - The subscriber side

    /// What a `Probe` saw, readable from the test while URLSession's threads write to it.
    fileprivate final class EventLog<Input, Failure: Error>: @unchecked Sendable {
        enum Event {
            case subscription
            case value(Input)
            case completion(Subscribers.Completion<Failure>)
        }

        private let lock = NSLock()
        private var storage: [Event] = []
        private var storedSubscription: (any Subscription)?
        /// Fires on the terminal event.
        let terminated = Signal()

        func record(_ event: Event, subscription: (any Subscription)? = nil) {
            lock.lock()
            storage.append(event)
            if let subscription { storedSubscription = subscription }
            lock.unlock()
            if case .completion = event { terminated.fire() }
        }

        var events: [Event] { lock.withLock { storage } }
        /// The subscription the probe received, kept here so that a test can cancel it after dropping the probe.
        var subscription: (any Subscription)? { lock.withLock { storedSubscription } }
        var values: [Input] { events.compactMap { if case .value(let value) = $0 { value } else { nil } } }
        var completions: [Subscribers.Completion<Failure>] {
            events.compactMap { if case .completion(let completion) = $0 { completion } else { nil } }
        }
    }

    /// A subscriber that records into an `EventLog` and requests `initialDemand` on subscription.
    fileprivate final class Probe<Input, Failure: Error>: Subscriber, @unchecked Sendable {
        let log: EventLog<Input, Failure>
        private let initialDemand: Subscribers.Demand?
        private let lock = NSLock()
        private var subscription: (any Subscription)?

        init(log: EventLog<Input, Failure> = EventLog(), initialDemand: Subscribers.Demand?) {
            self.log = log
            self.initialDemand = initialDemand
        }

        func receive(subscription: any Subscription) {
            lock.withLock { self.subscription = subscription }
            log.record(.subscription, subscription: subscription)
            if let initialDemand { subscription.request(initialDemand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            log.record(.value(input))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            // Let go of the subscription as Sink does, so the test sees what else keeps it alive.
            lock.withLock { subscription = nil }
            log.record(.completion(completion))
        }
    }

    /// A real session that also remembers the tasks it made and signals when their handlers have run,
    /// so a test can see whether a task exists, whether it was cancelled, and when its handler returned.
    final class TaskKeepingSession: URLSession, @unchecked Sendable {
        private let lock = NSLock()
        private var made: [URLSessionDataTask] = []
        /// Fires when the first task's completion handler has returned.
        let firstHandlerReturned = Signal()

        static func make() -> TaskKeepingSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = DataTaskPublisherTests.patience
            configuration.timeoutIntervalForResource = DataTaskPublisherTests.patience * 2
            return TaskKeepingSession(configuration: configuration)
        }

        var tasks: [URLSessionDataTask] { lock.withLock { made } }

        override func dataTask(
            with request: URLRequest,
            completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        ) -> URLSessionDataTask {
            let signal = firstHandlerReturned
            let task = super.dataTask(with: request) { data, response, error in
                completionHandler(data, response, error)
                signal.fire()
            }
            lock.withLock { made.append(task) }
            return task
        }
    }

    // MARK: - The server side

    /// A FlyingFox server on 127.0.0.1 that numbers the requests it receives.
    final class LoopbackServer: Sendable {
        private let server: HTTPServer
        private let running: Task<Void, any Error>
        private let counter: RequestCounter
        let port: UInt16

        private init(server: HTTPServer, running: Task<Void, any Error>, counter: RequestCounter, port: UInt16) {
            self.server = server
            self.running = running
            self.counter = counter
            self.port = port
        }

        /// Starts a server whose handler sees each request with its number (1, 2, ...).
        static func start(
            _ respond: @escaping @Sendable (_ number: Int, HTTPRequest) async throws -> HTTPResponse
        ) async throws -> LoopbackServer {
            let counter = RequestCounter()
            let server = HTTPServer(
                address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0),
                timeout: DataTaskPublisherTests.patience * 2,
                logger: .disabled,
                handler: ClosureHTTPHandler { request in try await respond(counter.next(), request) }
            )
            let running = Task { try await server.run() }
            do {
                try await server.waitUntilListening(timeout: DataTaskPublisherTests.serverStartup)
                guard case .ip4(_, let port)? = await server.listeningAddress else {
                    throw SocketError.unsupportedAddress
                }
                return LoopbackServer(server: server, running: running, counter: counter, port: port)
            } catch {
                await server.stop()
                running.cancel()
                throw error
            }
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)/resource")! }
        var requestCount: Int { counter.count }
        /// Fires when the first request reaches the handler.
        var firstRequest: Signal { counter.first }

        func stop() async {
            // No grace period: keep-alive connections would hold a graceful stop for its whole timeout.
            await server.stop(timeout: 0)
            running.cancel()
        }

        /// Runs `body` with a fresh server and session, then stops and invalidates both, even on failure.
        static func with(
            _ respond: @escaping @Sendable (_ number: Int, HTTPRequest) async throws -> HTTPResponse,
            _ body: (LoopbackServer, TaskKeepingSession) async throws -> Void
        ) async throws {
            let server = try await start(respond)
            let session = TaskKeepingSession.make()
            do {
                try await body(server, session)
            } catch {
                session.invalidateAndCancel()
                await server.stop()
                throw error
            }
            session.invalidateAndCancel()
            await server.stop()
        }
    }

    /// Numbers the requests a server receives; thread-safe.
    final class RequestCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        let first = Signal()

        func next() -> Int {
            let number = lock.withLock {
                total += 1; return total
            }
            first.fire()
            return number
        }

        var count: Int { lock.withLock { total } }
    }

    /// A WebSocket "upgrade" whose handshake fails: FlyingFox then closes the connection before it
    /// has written a byte, which is how a server that drops a request without answering looks.
    fileprivate struct HangUp: WSHandler {
        struct Refused: Error {}
        func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
            throw Refused()
        }
    }

    fileprivate static func hangUp() -> HTTPResponse { HTTPResponse(webSocket: HangUp()) }

    static func ok(_ body: String, type: String = "text/plain") -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: type], body: Data(body.utf8))
    }

    fileprivate struct Repository: Decodable, Equatable, Sendable {
        let name: String
        let stars: Int
    }

    fileprivate static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
}

extension Publisher {
    /// Subscribes a probe (demanding `initialDemand` at once) and returns what it records.
    fileprivate func probe(initialDemand: Subscribers.Demand? = .unlimited)
        -> DataTaskPublisherTests.EventLog<Output, Failure>
    {
        let probe = DataTaskPublisherTests.Probe<Output, Failure>(initialDemand: initialDemand)
        subscribe(probe)
        return probe.log
    }
}

// MARK: - Tests

@Suite(.serialized, .timeLimit(.minutes(1)))
struct DataTaskPublisherTests {
    @Test func publisherKeepsItsRequestAndSession() {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let url = URL(string: "http://127.0.0.1:9/a")!
        let request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 42)
        #expect(session.dataTaskPublisher(for: url).request == URLRequest(url: url))
        #expect(session.dataTaskPublisher(for: request).request == request)
        #expect(session.dataTaskPublisher(for: request).session === session)
        #expect(URLSession.DataTaskPublisher(request: request, session: session).request == request)
    }

    @Test func subscriptionDescribesItselfAsCombineDoes() throws {
        let session = TaskKeepingSession.make()
        defer { session.invalidateAndCancel() }
        let publisher = session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:9/a")!)
        let log = publisher.probe(initialDemand: nil)
        let subscription = try #require(log.subscription)
        #expect(String(describing: subscription) == "DataTaskPublisher")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "DataTaskPublisher")
        #expect(!(subscription is CustomDebugStringConvertible))
        let children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
        #expect(children.map(\.0) == ["task", "downstream", "parent", "demand"])
        #expect(children.first?.1 == "nil")
        #expect(children.last?.1 == "max(0)")
        #expect(children[2].1 == String(describing: Optional(publisher)))
        subscription.cancel()
    }

    @Test func requestingNothingTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let session = URLSession(configuration: .ephemeral)
            let log = EventLog<(data: Data, response: URLResponse), URLError>()
            session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:9/a")!)
                .subscribe(Probe(log: log, initialDemand: nil))
            log.subscription?.request(.none)
        }
        expectTrapMessage(result, contains: "API violation")
    }

    @Test func okJSONIsDecoded() async throws {
        try await LoopbackServer.with({ _, _ in Self.ok(#"{"name":"sluice","stars":3}"#, type: "application/json") }) {
            server, session in
            let log = session.dataTaskPublisher(for: server.url)
                .map(\.data)
                .decode(type: Repository.self, decoder: JSONDecoder())
                .probe()
            #expect(await log.terminated.wait(seconds: Self.patience))
            #expect(log.values == [Repository(name: "sluice", stars: 3)])
            #expect(log.completions.count == 1)
            if case .failure(let error)? = log.completions.first { Issue.record("failed: \(error)") }
            #expect(server.requestCount == 1)
        }
    }

    @Test func valueThenFinishedWithTheHTTPResponse() async throws {
        try await LoopbackServer.with({ _, _ in Self.ok("hello") }) { server, session in
            let log = session.dataTaskPublisher(for: URLRequest(url: server.url)).probe(initialDemand: .max(1))
            #expect(await log.terminated.wait(seconds: Self.patience))
            let events = log.events
            #expect(events.count == 3)
            guard events.count == 3, case .subscription = events[0], case .value(let output) = events[1],
                case .completion(.finished) = events[2]
            else {
                Issue.record("expected subscription, value, finished; got \(events)"); return
            }
            #expect(Self.text(output.data) == "hello")
            let response = try #require(output.response as? HTTPURLResponse)
            #expect(response.statusCode == 200)
            #expect(response.url == server.url)
            #expect(session.tasks.count == 1)
        }
    }

    @Test func notFoundStillDeliversItsBodyAndResponse() async throws {
        try await LoopbackServer.with({ _, _ in HTTPResponse(statusCode: .notFound, body: Data("no such thing".utf8)) })
        { server, session in
            let log = session.dataTaskPublisher(for: server.url).probe()
            #expect(await log.terminated.wait(seconds: Self.patience))
            #expect(log.values.map { Self.text($0.data) } == ["no such thing"])
            #expect(log.values.map { ($0.response as? HTTPURLResponse)?.statusCode } == [404])
            #expect(log.completions.count == 1)
            if case .failure(let error)? = log.completions.first { Issue.record("a 404 is not a failure: \(error)") }
        }
    }

    @Test func serverThatHangsUpFailsWithAURLError() async throws {
        try await LoopbackServer.with({ _, _ in Self.hangUp() }) { server, session in
            let log = session.dataTaskPublisher(for: server.url).probe()
            #expect(await log.terminated.wait(seconds: Self.patience))
            #expect(log.values.isEmpty)
            guard case .failure(let error)? = log.completions.first else {
                Issue.record("expected a failure, got \(log.events)"); return
            }
            // libcurl reports an empty reply as a bad server response; Darwin reports a lost connection.
            #expect([.badServerResponse, .networkConnectionLost].contains(error.code), "\(error)")
            #expect(server.requestCount >= 1)
        }
    }

    @Test func connectionRefusedFailsWithCannotConnectToHost() async throws {
        // A socket bound to a port but not listening: the port is ours, and connecting is refused.
        let socket = try Socket(domain: AF_INET)
        defer { try? socket.close() }
        try socket.bind(to: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0))
        guard case .ip4(_, let port) = try socket.sockname() else { Issue.record("no port"); return }
        let session = TaskKeepingSession.make()
        defer { session.invalidateAndCancel() }
        let log = session.dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/")!).probe()
        #expect(await log.terminated.wait(seconds: Self.patience))
        #expect(log.values.isEmpty)
        guard case .failure(let error)? = log.completions.first else {
            Issue.record("expected a failure, got \(log.events)"); return
        }
        #expect(error.code == .cannotConnectToHost, "\(error)")
    }

    @Test func cancellingMidFlightCancelsTheTaskAndReleasesTheSubscriber() async throws {
        let gate = Signal()
        try await LoopbackServer.with({ _, _ in
            _ = await gate.wait(seconds: Self.patience)
            return Self.ok("too late")
        }) { server, session in
            let log = EventLog<URLSession.DataTaskPublisher.Output, URLError>()
            var probe: Probe<URLSession.DataTaskPublisher.Output, URLError>? = Probe(log: log, initialDemand: .max(1))
            weak let weakProbe = probe
            session.dataTaskPublisher(for: server.url).subscribe(probe!)
            probe = nil
            #expect(weakProbe != nil, "the subscription keeps its subscriber while live")
            #expect(await server.firstRequest.wait(seconds: Self.patience), "the request should reach the server")

            try #require(log.subscription).cancel()
            #expect(weakProbe == nil, "cancel lets go of the subscriber at once")
            let task = try #require(session.tasks.first)
            #expect([.canceling, .completed].contains(task.state), "the data task is cancelled")

            gate.fire()
            // The session calls the handler (with a cancellation error) once the task ends; after
            // that returns, nothing can be delivered any more.
            #expect(await session.firstHandlerReturned.wait(seconds: Self.patience))
            #expect(log.events.count == 1, "nothing after the cancel: \(log.events)")
        }
    }

    @Test func noRequestBeforeTheFirstDemand() async throws {
        try await LoopbackServer.with({ _, _ in Self.ok("late") }) { server, session in
            let log = session.dataTaskPublisher(for: server.url).probe(initialDemand: nil)
            #expect(session.tasks.isEmpty, "no task before demand")
            #expect(await server.firstRequest.wait(seconds: Self.grace) == false, "no request before demand")
            #expect(server.requestCount == 0)

            try #require(log.subscription).request(.max(1))
            #expect(await log.terminated.wait(seconds: Self.patience))
            #expect(log.values.map { Self.text($0.data) } == ["late"])
            #expect(server.requestCount == 1)
            #expect(session.tasks.count == 1)
        }
    }

    @Test func eachSubscriptionMakesItsOwnRequest() async throws {
        try await LoopbackServer.with({ number, _ in Self.ok("reply \(number)") }) { server, session in
            let publisher = session.dataTaskPublisher(for: server.url).map { Self.text($0.data) }
            let first = publisher.probe()
            #expect(await first.terminated.wait(seconds: Self.patience))
            let second = publisher.probe()
            #expect(await second.terminated.wait(seconds: Self.patience))
            #expect(first.values == ["reply 1"])
            #expect(second.values == ["reply 2"])
            #expect(server.requestCount == 2)
        }
    }

    @Test func retryResubscribesUntilTheServerAnswers() async throws {
        try await LoopbackServer.with({ number, _ in number <= 2 ? Self.hangUp() : Self.ok("third time lucky") }) {
            server, session in
            let log = session.dataTaskPublisher(for: server.url).retry(2).map { Self.text($0.data) }.probe()
            #expect(await log.terminated.wait(seconds: Self.patience * 2))
            #expect(log.values == ["third time lucky"])
            #expect(log.completions.count == 1)
            if case .failure(let error)? = log.completions.first { Issue.record("failed: \(error)") }
            #expect(server.requestCount == 3)
            #expect(session.tasks.count == 3)
        }
    }

    @Test func catchFallsBackToJust() async throws {
        try await LoopbackServer.with({ _, _ in Self.hangUp() }) { server, session in
            let log = session.dataTaskPublisher(for: server.url)
                .map { Self.text($0.data) }
                .catch { error in Just("fallback after \(error.code == .unknown ? "unknown" : "URLError")") }
                .probe()
            #expect(await log.terminated.wait(seconds: Self.patience))
            #expect(log.values == ["fallback after URLError"])
            #expect(log.completions.count == 1)
        }
    }
}

// MARK: - The protocol with a scripted session

extension DataTaskPublisherProtocolTests {
    /// A data task that only records what it is told.
    fileprivate final class ScriptedTask: URLSessionDataTask, @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        var history: [String] { lock.withLock { calls } }
        override func resume() { lock.withLock { calls.append("resume") } }
        override func cancel() { lock.withLock { calls.append("cancel") } }
    }

    /// A session whose tasks never touch the network: the test calls their handlers itself.
    fileprivate final class ScriptedSession: URLSession, @unchecked Sendable {
        private let lock = NSLock()
        private var handlers: [@Sendable (Data?, URLResponse?, (any Error)?) -> Void] = []
        private var madeFor: [URLRequest] = []
        let task = ScriptedTask()

        static func make() -> ScriptedSession { ScriptedSession(configuration: .ephemeral) }

        var requests: [URLRequest] { lock.withLock { madeFor } }

        override func dataTask(
            with request: URLRequest,
            completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
        ) -> URLSessionDataTask {
            lock.withLock {
                madeFor.append(request)
                handlers.append(completionHandler)
            }
            return task
        }

        /// Calls every handler handed out so far, as a session does when a task ends.
        func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
            for handler in lock.withLock({ handlers }) { handler(data, response, error) }
        }
    }

    fileprivate struct Unrelated: Error {}
}

/// The rules OpenCombine's URLSessionTests (checked against Apple's Combine) settle, with a session
/// that hands out a recording task, so every call to the task is visible.
@Suite struct DataTaskPublisherProtocolTests {
    private let request = URLRequest(
        url: URL(string: "http://127.0.0.1:9/a")!, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 42)
    private let response = URLResponse(
        url: URL(string: "http://127.0.0.1:9/a")!, mimeType: "text/plain", expectedContentLength: 9,
        textEncodingName: "utf-8")
    private let body = Data("test data".utf8)

    /// What a subscriber demanding one value sees when the task ends with `data`, `response`, `error`,
    /// reported three times over (a second report must change nothing).
    private func outcome(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> [String] {
        let session = ScriptedSession.make()
        let log = session.dataTaskPublisher(for: request).probe(initialDemand: .max(1))
        #expect(session.requests == [request])
        #expect(session.task.history == ["resume"])
        for _ in 1...3 { session.complete(data, response, error) }
        #expect(session.task.history == ["resume"])
        return log.events.dropFirst().map { event in
            switch event {
            case .subscription: "subscription"
            case .value(let output): "value(\(output.data.count) bytes, \(output.response === response))"
            case .completion(.finished): "finished"
            case .completion(.failure(let error)):
                // Compared as Combine's own tests compare: URLError equality includes the user info.
                error == URLError(.unknown) ? "unknown" : "failure(\(error.code.rawValue))"
            }
        }
    }

    @Test func aResponseIsAValueThenFinished() {
        #expect(outcome(body, response, nil) == ["value(9 bytes, true)", "finished"])
        // testReceiveOnlyResponse: no data with a response is an empty body, not a failure.
        #expect(outcome(nil, response, nil) == ["value(0 bytes, true)", "finished"])
    }

    @Test func anErrorWinsOverDataAndResponse() {
        let error = URLError(.cannotParseResponse)
        #expect(outcome(body, nil, error) == ["failure(\(error.code.rawValue))"])
        #expect(outcome(nil, response, error) == ["failure(\(error.code.rawValue))"])
        #expect(outcome(nil, nil, error) == ["failure(\(error.code.rawValue))"])
    }

    @Test func anythingElseIsAPlainUnknownURLError() {
        #expect(outcome(nil, nil, nil) == ["unknown"])
        #expect(outcome(body, nil, nil) == ["unknown"])
        #expect(outcome(body, nil, Unrelated()) == ["unknown"])
        #expect(outcome(nil, response, Unrelated()) == ["unknown"])
        #expect(outcome(nil, nil, Unrelated()) == ["unknown"])
    }

    @Test func anNSErrorInTheURLDomainIsItsURLError() {
        // What swift-corelibs-foundation hands over; Darwin bridges it to URLError by itself.
        let error = NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue)
        #expect(outcome(nil, nil, error) == ["failure(\(URLError.Code.timedOut.rawValue))"])
    }

    @Test func oneTaskResumedOnEveryRequestAndCancelledOnce() throws {
        let session = ScriptedSession.make()
        let log = session.dataTaskPublisher(for: request).probe(initialDemand: nil)
        session.complete(body, response, nil)
        #expect(session.requests.isEmpty && session.task.history.isEmpty, "nothing before the first demand")

        let subscription = try #require(log.subscription)
        subscription.request(.max(2))
        subscription.request(.max(1))
        #expect(session.requests == [request])
        #expect(session.task.history == ["resume", "resume"])

        subscription.cancel()
        subscription.request(.max(1))
        subscription.cancel()
        session.complete(body, response, nil)
        #expect(session.task.history == ["resume", "resume", "cancel"])
        #expect(session.requests == [request])
        #expect(log.events.count == 1, "nothing after the cancel: \(log.events)")
    }

    @Test func theMirrorShowsTheTaskOnceMade() throws {
        let session = ScriptedSession.make()
        let log = session.dataTaskPublisher(for: request).probe(initialDemand: .max(3))
        let subscription = try #require(log.subscription)
        let children = Mirror(reflecting: subscription).children.map { ($0.label, String(describing: $0.value)) }
        #expect(children.first?.1 == String(describing: Optional<URLSessionDataTask>.some(session.task)))
        #expect(children.last?.1 == "max(3)")
        subscription.cancel()
    }
}
