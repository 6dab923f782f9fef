// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

import Foundation

// `URLSession.dataTaskPublisher(for:)`: one URL load as a publisher of one value.
#if SLUICE_REFERENCE
import SluiceReference
#else
import Sluice
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that loads `url` with this session when a subscriber first asks for a value.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that loads `request` with this session when a subscriber first asks for a value.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the result of one data task per subscription: the body and the
    /// response, then `.finished`; or a `URLError`.
    ///
    /// The task is created and resumed on the first demand, not on subscription, so a pipeline that
    /// never asks for a value never touches the network. Cancelling the subscription cancels the task.
    public struct DataTaskPublisher: Publisher {
        /// The body (empty if the server sent none) and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// Every failure is a `URLError`; any other error the session reports becomes `.unknown`.
        public typealias Failure = URLError

        /// The request each subscription loads.
        public let request: URLRequest
        /// The session that runs each subscription's data task.
        public let session: URLSession

        /// Creates a publisher that loads `request` with `session`.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Gives `subscriber` its own subscription; nothing is loaded until it requests a value.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
        }
    }
}

extension URLSession.DataTaskPublisher {
    /// One subscription, one data task, one lock. `parent` doubles as the "still live" flag: it is
    /// nil once the subscription finished, failed or was cancelled, and nothing is delivered then.
    private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskCompletionReceiver,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == URLError {
        // @unchecked Sendable: every stored property below is read and written under `lock` only.
        private let lock = NSLock()
        private var parent: URLSession.DataTaskPublisher?
        private var downstream: Downstream?
        private var task: URLSessionDataTask?
        private var demand = Subscribers.Demand.none
        /// A first request is creating the task outside the lock; other requests must not make a second.
        private var isCreatingTask = false

        init(parent: URLSession.DataTaskPublisher, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertNonZero(on: "DataTaskPublisher")
            lock.lock()
            guard let parent else { return lock.unlock() }
            self.demand += demand
            if let task {
                lock.unlock()
                // Combine resumes the task again on every request; resuming a running task is harmless.
                return task.resume()
            }
            if isCreatingTask { return lock.unlock() }
            isCreatingTask = true
            lock.unlock()
            // Made outside the lock: a session (a subclass, say) may call the handler before returning.
            // The handler holds the subscription strongly, so the load completes even if nobody else
            // keeps it; that cycle through the task ends when the task completes or is cancelled. It
            // goes through a non-generic protocol: a `@Sendable` closure may not capture `Downstream`.
            let receiver: any DataTaskCompletionReceiver = self
            let created = parent.session.dataTask(with: parent.request) { data, response, error in
                receiver.complete(data: data, response: response, error: error)
            }
            lock.lock()
            isCreatingTask = false
            guard self.parent != nil else {
                // Cancelled (or completed) while the task was being made: never start it.
                lock.unlock()
                return created.cancel()
            }
            task = created
            lock.unlock()
            created.resume()
        }

        func cancel() {
            lock.lock()
            guard parent != nil else { return lock.unlock() }
            let released = terminate()
            lock.unlock()
            // Released here, not under the lock: a deinit may call back into this subscription.
            withExtendedLifetime(released) {}
            released.task?.cancel()
        }

        /// The data task's completion handler: at most one delivery, and none after a cancel.
        func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
            lock.lock()
            guard parent != nil, let downstream else { return lock.unlock() }
            let released = terminate()
            lock.unlock()
            withExtendedLifetime(released) {}
            if let error {
                downstream.receive(completion: .failure(Self.urlError(from: error)))
            } else if let response {
                // A response without a body is a success with an empty body (Combine's behaviour).
                _ = downstream.receive((data: data ?? Data(), response: response))
                downstream.receive(completion: .finished)
            } else {
                // Neither a response nor an error: the session broke its contract.
                downstream.receive(completion: .failure(URLError(.unknown)))
            }
        }

        /// Lets go of everything (under the lock) and returns it, for the caller to release after unlocking.
        private func terminate() -> (
            parent: URLSession.DataTaskPublisher?, downstream: Downstream?, task: URLSessionDataTask?
        ) {
            defer { (parent, downstream, task, demand) = (nil, nil, nil, .none) }
            return (parent, downstream, task)
        }

        /// The error as Combine reports it: a `URLError` as is, an `NSURLErrorDomain` error as the
        /// `URLError` it stands for (Darwin bridges it; swift-corelibs-foundation may hand over a plain
        /// `NSError`), anything else as `URLError(.unknown)` with no user info, as Combine does.
        private static func urlError(from error: any Error) -> URLError {
            if let urlError = error as? URLError { return urlError }
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain else { return URLError(.unknown) }
            // Optional on purpose: the initializer is failable here and not on Darwin.
            let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
            return URLError(code ?? .unknown, userInfo: nsError.userInfo)
        }

        var description: String { "DataTaskPublisher" }

        var playgroundDescription: Any { description }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(
                self,
                children: [
                    ("task", task as Any),
                    ("downstream", downstream as Any),
                    ("parent", parent as Any),
                    ("demand", demand),
                ])
        }
    }
}

/// What a data task's completion handler calls: any subscription, whatever its subscriber's type.
private protocol DataTaskCompletionReceiver: AnyObject, Sendable {
    func complete(data: Data?, response: URLResponse?, error: (any Error)?)
}
