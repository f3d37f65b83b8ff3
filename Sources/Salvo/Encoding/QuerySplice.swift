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
    /// UTF-8 offsets into `string`: where the query (after its `?`) and the fragment (from its
    /// `#`) start, if present, and where the path ends.
    private let queryStart: Int?
    private let fragmentStart: Int?
    private let pathEnd: Int

    init?(_ url: URL) {
        guard url.baseURL == nil else { return nil }
        var string = url.absoluteString
        // One pass over contiguous UTF-8 by offset: the generic collection algorithms over
        // `String.UTF8View` cost several times as much.
        let parts = string.withUTF8 { bytes -> (query: Int?, fragment: Int?, pathEnd: Int)? in
            let count = bytes.count
            var colon = 0
            while colon < count && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
            guard colon + 2 < count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
            let authorityStart = colon + 3
            var authorityEnd = authorityStart
            var portColon: Int?
            while authorityEnd < count {
                let byte = bytes[authorityEnd]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "@") { return nil }
                if byte == UInt8(ascii: ":") && portColon == nil { portColon = authorityEnd }
                authorityEnd += 1
            }
            guard authorityEnd > authorityStart, bytes[authorityStart] != UInt8(ascii: "[") else { return nil }
            if let portColon {
                let portStart = portColon + 1
                guard portStart < authorityEnd else { return nil }
                for index in portStart..<authorityEnd where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { return nil }
                guard bytes[portStart] != UInt8(ascii: "0") || authorityEnd - portStart == 1 else { return nil }
            }
            var fragment: Int?
            var question: Int?
            var index = authorityEnd
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "#") {
                    fragment = index
                    break
                }
                if byte == UInt8(ascii: "?") && question == nil { question = index }
                index += 1
            }
            return (question.map { $0 + 1 }, fragment, question ?? fragment ?? count)
        }
        guard let parts else { return nil }
        self.string = string
        queryStart = parts.query
        fragmentStart = parts.fragment
        pathEnd = parts.pathEnd
    }

    func url(appending query: String) -> URL? {
        url(appending: Array(query.utf8))
    }

    /// The URL with `query` (percent-encoded UTF-8) added to its query.
    func url(appending query: [UInt8]) -> URL? {
        var string = string
        let text = string.withUTF8 { bytes -> String in
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count + query.count + 2)
            text.append(contentsOf: bytes[..<pathEnd])
            let end = fragmentStart ?? bytes.count
            // As with `URLComponents`: an existing query, even an empty one, is joined with
            // `&`, and the `?` is left out only when the joined query is empty.
            if let queryStart {
                text.append(UInt8(ascii: "?"))
                text.append(contentsOf: bytes[queryStart..<end])
                text.append(UInt8(ascii: "&"))
                text.append(contentsOf: query)
            } else if !query.isEmpty {
                text.append(UInt8(ascii: "?"))
                text.append(contentsOf: query)
            }
            if let fragmentStart { text.append(contentsOf: bytes[fragmentStart...]) }
            return String(decoding: text, as: UTF8.self)
        }
        return URL(string: text)
    }
}
