import Foundation

/// One HTTP header: a name and a value.
public struct HTTPHeader: Equatable, Hashable, Sendable {
    /// The header's name, as given.
    public let name: String

    /// The header's value.
    public let value: String

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension HTTPHeader: CustomStringConvertible {
    /// The header as `Name: Value`.
    public var description: String { "\(name): \(value)" }
}

extension HTTPHeader {
    /// An `Accept` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func accept(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept", value: value)
    }

    /// An `Accept-Charset` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func acceptCharset(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Charset", value: value)
    }

    /// An `Accept-Language` header.
    ///
    /// `HTTPHeader.defaultAcceptLanguage` builds one from the process's preferred languages.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func acceptLanguage(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Language", value: value)
    }

    /// An `Accept-Encoding` header.
    ///
    /// `HTTPHeader.defaultAcceptEncoding` lists the encodings libcurl can decode.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func acceptEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Accept-Encoding", value: value)
    }

    /// A `Basic` `Authorization` header from a user name and password.
    ///
    /// - Parameters:
    ///   - username: The user name.
    ///   - password: The password.
    /// - Returns: The header.
    public static func authorization(username: String, password: String) -> HTTPHeader {
        let credential = Data("\(username):\(password)".utf8).base64EncodedString()
        return authorization("Basic \(credential)")
    }

    /// A `Bearer` `Authorization` header.
    ///
    /// - Parameter bearerToken: The token.
    /// - Returns: The header.
    public static func authorization(bearerToken: String) -> HTTPHeader {
        authorization("Bearer \(bearerToken)")
    }

    /// An `Authorization` header with the value given as is.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func authorization(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Authorization", value: value)
    }

    /// A `Content-Disposition` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func contentDisposition(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Disposition", value: value)
    }

    /// A `Content-Encoding` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func contentEncoding(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Encoding", value: value)
    }

    /// A `Content-Type` header.
    ///
    /// - Note: Salvo's encoders set `Content-Type` only when the request has none.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func contentType(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Content-Type", value: value)
    }

    /// A `User-Agent` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func userAgent(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "User-Agent", value: value)
    }

    /// A `Sec-WebSocket-Protocol` header.
    ///
    /// - Parameter value: The value.
    /// - Returns: The header.
    public static func websocketProtocol(_ value: String) -> HTTPHeader {
        HTTPHeader(name: "Sec-WebSocket-Protocol", value: value)
    }
}
