import Foundation

/// Appends a query to a URL by editing its text, for URLs whose text is already what
/// `URLComponents` would rebuild, which costs a fifth of the `URLComponents` round trip.
///
/// `URLComponents` rebuilds the whole URL from its parts: it drops an empty port (`h:/`),
/// rewrites a port's leading zeros (`h:080`) and so on. Splicing is used only for the shape
/// where nothing can change: no base URL, a `scheme://` authority without user info or
/// IPv6 literal, and a port, if any, written canonically. Every other URL takes the
/// `URLComponents` path, as in Alamofire.
struct QuerySplice {
    private let string: String
    /// Where the query (after its `?`) and the fragment (from its `#`) start, if present.
    private let queryStart: String.Index?
    private let fragmentStart: String.Index?
    private let pathEnd: String.Index

    init?(_ url: URL) {
        guard url.baseURL == nil else { return nil }
        let string = url.absoluteString
        let bytes = string.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: "://".utf8) else { return nil }
        let authorityStart = bytes.index(colon, offsetBy: 3)
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        guard let first = authority.first, first != UInt8(ascii: "["),
              !authority.contains(UInt8(ascii: "@")) else { return nil }
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            let port = authority[authority.index(after: portColon)...]
            guard let leading = port.first,
                  port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  leading != UInt8(ascii: "0") || port.count == 1 else { return nil }
        }

        self.string = string
        let fragmentStart = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "#"))
        let questionMark = bytes[authorityEnd..<(fragmentStart ?? bytes.endIndex)].firstIndex(of: UInt8(ascii: "?"))
        self.fragmentStart = fragmentStart
        queryStart = questionMark.map { bytes.index(after: $0) }
        pathEnd = questionMark ?? fragmentStart ?? bytes.endIndex
    }

    /// The URL with `query` joined to its query the way Alamofire joins them.
    ///
    /// - Parameter query: The percent-encoded query text to add.
    /// - Returns: The new URL, or `nil` when its text does not parse.
    func url(appending query: String) -> URL? {
        var text = String(string[..<pathEnd])
        let end = fragmentStart ?? string.endIndex
        // As with `URLComponents`: an existing query, even an empty one, is joined with `&`,
        // and the `?` is left out only when the joined query is empty.
        if let queryStart {
            text += "?"
            text += string[queryStart..<end]
            text += "&"
            text += query
        } else if !query.isEmpty {
            text += "?"
            text += query
        }
        if let fragmentStart { text += string[fragmentStart...] }
        return URL(string: text)
    }
}
