/// A publisher that provides an explicit means of connecting and cancelling publication.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance with
    /// which to cancel publishing.
    func connect() -> any Cancellable
}
