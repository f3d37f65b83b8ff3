/// An HTTP method, as a raw `String` so that custom methods can be expressed.
///
/// The standard methods are provided as static members; any other method is
/// `HTTPMethod(rawValue: "PURGE")`. Raw values are compared case-sensitively, as
/// RFC 9110 requires.
public struct HTTPMethod: RawRepresentable, Equatable, Hashable, Sendable {
    /// `CONNECT` method.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `DELETE` method.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `GET` method.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD` method.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS` method.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH` method.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `POST` method.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT` method.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `QUERY` method.
    public static let query = HTTPMethod(rawValue: "QUERY")
    /// `TRACE` method.
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// The method's name as sent on the wire.
    public let rawValue: String

    /// Creates a method from its name.
    ///
    /// - Parameter rawValue: The method name, sent as given.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}
