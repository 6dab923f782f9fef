/// A namespace for the types that serve as publishers.
public enum Publishers {}

/// A namespace for the types that act as subscribers.
public enum Subscribers {}

/// A namespace for the subscriptions that do not belong to one particular publisher.
public enum Subscriptions {}
