import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Salvo's own description of what to send, read once from a `URLRequest` at the edge (or
/// built straight from a URL, method and headers), so the hot path never mutates a
/// `URLRequest`, whose header setters are expensive on Linux.
struct RequestSpec: Sendable {
    /// The fields live in one shared, copy-on-write box: a spec is stored by the request,
    /// its current attempt and that attempt's response context, and copying six fields
    /// (a dozen reference counts) at each of those steps cost more than the box.
    private final class Storage: @unchecked Sendable { // mutated only through `RequestSpec.unique()`, when no other spec shares it
        // Unchecked: a box is written only while one spec owns it, so no two accesses
        // overlap, and the runtime's check cost ~100 instructions per read.
        @exclusivity(unchecked) var parsedURL: URL?
        @exclusivity(unchecked) var urlString: String
        @exclusivity(unchecked) var method: HTTPMethod
        @exclusivity(unchecked) var headers: HTTPHeaders
        @exclusivity(unchecked) var body: Data?
        @exclusivity(unchecked) var timeoutInterval: TimeInterval
        /// `URLRequest.httpShouldHandleCookies`: whether the session's cookie storage takes part.
        @exclusivity(unchecked) var handlesCookies: Bool

        init(parsedURL: URL?, urlString: String, method: HTTPMethod, headers: HTTPHeaders, body: Data?, timeoutInterval: TimeInterval,
             handlesCookies: Bool = true) {
            self.parsedURL = parsedURL
            self.urlString = urlString
            self.method = method
            self.headers = headers
            self.body = body
            self.timeoutInterval = timeoutInterval
            self.handlesCookies = handlesCookies
        }

        func copy() -> Storage {
            Storage(parsedURL: parsedURL, urlString: urlString, method: method, headers: headers, body: body,
                    timeoutInterval: timeoutInterval, handlesCookies: handlesCookies)
        }
    }

    private var storage: Storage

    /// The box, copied first if another spec shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The URL as text, kept so it is made once (the text the caller gave, when it was text).
    var urlString: String { storage.urlString }

    /// The URL, parsed when the spec was made from one, else on first use: a plain URL
    /// string that `isPlainHTTPURL` accepts goes to libcurl without Foundation parsing it.
    var url: URL {
        // `isPlainHTTPURL` admits only text Foundation parses, so the fallback is unreachable;
        // it exists to keep a bad assumption from becoming a crash.
        get { storage.parsedURL ?? URL(string: storage.urlString) ?? URL(string: "http://invalid.invalid/")! }
        set {
            let storage = unique()
            storage.parsedURL = newValue
            storage.urlString = newValue.absoluteString
        }
    }
    var method: HTTPMethod {
        get { storage.method }
        set { unique().method = newValue }
    }
    var headers: HTTPHeaders {
        get { storage.headers }
        _modify { yield &unique().headers }
    }
    var body: Data? {
        get { storage.body }
        set { unique().body = newValue }
    }
    var timeoutInterval: TimeInterval {
        get { storage.timeoutInterval }
        set { unique().timeoutInterval = newValue }
    }
    /// Whether the session's cookie storage sends cookies with this request and keeps the ones its
    /// response sets (`URLRequest.httpShouldHandleCookies`).
    var handlesCookies: Bool {
        get { storage.handlesCookies }
        set { unique().handlesCookies = newValue }
    }

    init(url: URL, urlString: String? = nil, method: HTTPMethod, headers: HTTPHeaders, body: Data? = nil,
         timeoutInterval: TimeInterval = 60) {
        storage = Storage(parsedURL: url, urlString: urlString ?? url.absoluteString, method: method, headers: headers,
                          body: body, timeoutInterval: timeoutInterval)
    }

    /// A spec for URL text already known to parse (see `isPlainHTTPURL`).
    init(plainURLString: String, method: HTTPMethod, headers: HTTPHeaders) {
        storage = Storage(parsedURL: nil, urlString: plainURLString, method: method, headers: headers, body: nil,
                          timeoutInterval: 60)
    }

    /// Whether URL text is an `http` or `https` URL made only of characters that need no
    /// escaping and no interpretation: such text parses the same in Foundation and libcurl,
    /// so the Foundation parse (the costliest step of a small request's set-up) can wait
    /// until something asks for a `URL`.
    static func isPlainHTTPURL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let prefixLength: Int
            if bytes.starts(with: "http://".utf8) {
                prefixLength = 7
            } else if bytes.starts(with: "https://".utf8) {
                prefixLength = 8
            } else {
                return false
            }
            // Authority: a host of letters, digits, '-' and '.', then an optional port.
            var index = prefixLength
            var hostLength = 0
            while index < bytes.count, Self.isHostByte(bytes[index]) {
                index += 1
                hostLength += 1
            }
            guard hostLength > 0 else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                var digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    index += 1
                    digits += 1
                }
                guard digits > 0, digits <= 5 else { return false }
            }
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") else { return false }
            // Path and query: unreserved characters and the few delimiters that need no escaping.
            while index < bytes.count {
                guard Self.isPlainPathByte(bytes[index]) else { return false }
                index += 1
            }
            return true
        }
    }

    // Plain comparisons rather than `case a...b` patterns: those went through unspecialized
    // generic range code, a thousand instructions per URL.
    @inline(__always)
    private static func isHostByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// Letters, digits, `-._~` and `/?=&`.
    @inline(__always)
    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        if isHostByte(byte) { return true }
        return byte == 0x5F || byte == 0x7E || byte == 0x2F || byte == 0x3F || byte == 0x3D || byte == 0x26
    }



    /// Reads a `URLRequest`.
    ///
    /// - Throws: `AFError.invalidURL` when the request has no URL.
    init(_ urlRequest: URLRequest) throws {
        guard let url = urlRequest.url else { throw AFError.invalidURL(url: "") }
        storage = Storage(parsedURL: url, urlString: url.absoluteString,
                          method: HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"),
                          headers: urlRequest.allHTTPHeaderFields.map(HTTPHeaders.init) ?? HTTPHeaders(),
                          body: urlRequest.httpBody, timeoutInterval: urlRequest.timeoutInterval,
                          handlesCookies: urlRequest.httpShouldHandleCookies)
    }

    /// The `URLRequest` this spec describes, built only when someone asks for it.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeoutInterval)
        request.httpMethod = method.rawValue
        if !headers.isEmpty { request.allHTTPHeaderFields = headers.dictionary }
        request.httpBody = body
        if !handlesCookies { request.httpShouldHandleCookies = false }
        return request
    }

    /// `scheme://authority` in lower case: the key for per-host connection limits.
    ///
    /// Read straight off the URL text: Foundation's `host`, `port` and `scheme` accessors
    /// re-parse the URL on Linux, which cost more than the rest of a request's set-up.
    static func originKey(of urlString: String) -> Substring {
        originKeyAndLength(of: urlString).key
    }

    /// Whether an origin key (lowercased `scheme://authority`) names plain `http`, the only
    /// scheme h2c prior knowledge applies to. Reads the bytes directly: a generic
    /// `starts(with:)` over the UTF-8 view cost ~400 instructions per request.
    static func isPlainHTTP(originKey: Substring) -> Bool {
        if let plain = originKey.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            bytes.count >= 5 && bytes[0] == UInt8(ascii: "h") && bytes[1] == UInt8(ascii: "t")
                && bytes[2] == UInt8(ascii: "t") && bytes[3] == UInt8(ascii: "p") && bytes[4] == UInt8(ascii: ":")
        }) {
            return plain
        }
        return originKey.hasPrefix("http:")
    }

    /// The origin key and the length, in UTF-8 bytes, of the part of `urlString` it comes from.
    static func originKeyAndLength(of urlString: String) -> (key: Substring, prefixLength: Int) {
        var text = urlString
        let (end, hasUpper) = text.withUTF8 { bytes -> (Int, Bool) in
            var index = 0
            var hasUpper = false
            // Skip "scheme://", then take the authority up to the path, query or fragment.
            var slashes = 0
            var seenColon = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
                if !seenColon {
                    if byte == UInt8(ascii: ":") { seenColon = true }
                } else if slashes < 2 {
                    if byte == UInt8(ascii: "/") { slashes += 1 } else { break }
                } else if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    break
                }
                index += 1
            }
            return (index, hasUpper)
        }
        let key = Substring(urlString.utf8.prefix(end))
        return (hasUpper ? Substring(key.lowercased()) : key, end)
    }
}
