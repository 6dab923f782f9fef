/// The errors the tests fail streams with.
enum TestError: Error, Equatable, Hashable, Codable, CustomStringConvertible {
    case oops
    case other

    var description: String {
        switch self {
        case .oops: "oops"
        case .other: "other"
        }
    }
}
