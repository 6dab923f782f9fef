// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import FlyingFox
// The examples in Examples/ (the README links them), used as an app would use them: on virtual
// time for the debounce, and against a real HTTP server on 127.0.0.1 for the network call.
import Foundation
import Sluice
import SluiceExamples
import SluiceTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ExamplesTests {
    @Test func searchAsYouTypeSearchesOnceTypingPausesAndKeepsOnlyTheLatestAnswer() {
        let scheduler = VirtualTimeScheduler()
        var answers: [String: PassthroughSubject<[String], Never>] = [:]
        var started: [String] = []
        let model = SearchViewModel(
            search: { query in
                started.append(query)
                let answer = PassthroughSubject<[String], Never>()
                answers[query] = answer
                return answer.eraseToAnyPublisher()
            }, quietTime: .milliseconds(300), scheduler: scheduler)

        model.query = "s"
        scheduler.advance(by: .milliseconds(100))
        model.query = "sw"
        scheduler.advance(by: .milliseconds(100))
        model.query = "Swift "
        #expect(started.isEmpty, "no search while typing")
        scheduler.advance(by: .milliseconds(300))
        #expect(started == ["swift"])

        model.query = "swift"
        scheduler.advance(by: .milliseconds(300))
        #expect(started == ["swift"], "the same query after trimming starts nothing")

        model.query = "combine"
        scheduler.advance(by: .milliseconds(300))
        #expect(started == ["swift", "combine"])
        answers["swift"]?.send(["Swift.org"])
        #expect(model.results.isEmpty, "a replaced search's late answer is dropped")
        answers["combine"]?.send(["Combine", "Sluice"])
        #expect(model.results == ["Combine", "Sluice"])

        model.query = "  "
        scheduler.advance(by: .milliseconds(300))
        #expect(model.results.isEmpty)
        #expect(started == ["swift", "combine"], "an empty query searches nothing")
    }

    @Test func formValidationFollowsEveryField() {
        let form = SignUpForm()
        var verdicts: [Bool] = []
        let token = form.$isValid.sink { verdicts.append($0) }
        #expect(form.passwordHint == "at least 8 characters")
        form.username = "ada"
        form.password = "difference"
        #expect(form.passwordHint == "the passwords differ")
        #expect(!form.isValid)
        form.repeatedPassword = "difference"
        #expect(form.passwordHint == nil)
        #expect(form.isValid)
        form.username = "a d"
        #expect(!form.isValid)
        form.username = "ada2"
        #expect(verdicts == [false, true, false, true], "published only when the verdict changes")
        token.cancel()
    }

    @Test func cartTotalFollowsItemsAndDiscount() {
        let cart = CartModel()
        var changes = 0
        let token = cart.objectWillChange.sink { changes += 1 }
        cart.add("tea", price: 450)
        cart.add("tea", price: 450)
        cart.add("cake", price: 300)
        #expect(cart.total == 1_200)
        cart.discountPercent = 25
        #expect(cart.total == 900)
        #expect(cart.items.map(\.quantity) == [2, 1])
        #expect(changes >= 4, "the view hears of every change to items and discount")
        token.cancel()
    }

    // MARK: The network call

    /// Loads user 7 from a loopback server (the URLSession suite's) answering with `respond` (given
    /// the request's number, 1 for the first), and returns what the screen gets and how many
    /// requests the server saw.
    func load(retries: Int, _ respond: @escaping @Sendable (Int) -> HTTPResponse) async throws -> ([UserState], Int) {
        let server = try await DataTaskPublisherTests.LoopbackServer.start { number, _ in respond(number) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let states = try await withThrowingTaskGroup(of: [UserState].self) { group in
            group.addTask {
                var states: [UserState] = []
                for await state in loadUser(
                    id: 7, from: URL(string: "http://127.0.0.1:\(server.port)")!, session: session, retries: retries
                ).values {
                    states.append(state)
                }
                return states
            }
            group.addTask {
                try await Task.sleep(for: .seconds(20))
                throw URLError(.timedOut)
            }
            let states = try await group.next() ?? []
            group.cancelAll()
            return states
        }
        await server.stop()
        return (states, server.requestCount)
    }

    static let ada = #"{"id": 7, "name": "Ada"}"#

    @Test func aNetworkCallIsRetriedThenDecoded() async throws {
        let (states, requests) = try await load(retries: 2) { number in
            number < 3
                ? HTTPResponse(statusCode: .internalServerError)
                : HTTPResponse(statusCode: .ok, body: Data(Self.ada.utf8))
        }
        #expect(states == [.loaded(User(id: 7, name: "Ada"))])
        #expect(requests == 3)
    }

    @Test func aNetworkCallThatKeepsFailingEndsUnavailable() async throws {
        let (states, requests) = try await load(retries: 2) { _ in HTTPResponse(statusCode: .serviceUnavailable) }
        #expect(states == [.unavailable])
        #expect(requests == 3, "the first attempt and two retries")
    }

    @Test func aBodyThatDoesNotDecodeIsNotRetried() async throws {
        let (states, requests) = try await load(retries: 2) { _ in HTTPResponse(statusCode: .ok, body: Data("{}".utf8))
        }
        #expect(states == [.unavailable])
        #expect(requests == 1)
    }
}
