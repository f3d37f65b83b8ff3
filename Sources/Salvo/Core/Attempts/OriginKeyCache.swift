import Foundation
import Synchronization

/// Remembers the last URL prefix turned into an origin key (`scheme://authority`), so the
/// requests of a session, which mostly go to one origin, skip rescanning their URL for it.
final class OriginKeyCache: Sendable {
    private struct Entry {
        /// The origin part of a URL as written (before any lowercasing).
        let prefix: String
        let key: Substring
    }

    private let last = Mutex<Entry?>(nil)

    /// The origin key of `urlString`, as `RequestSpec.originKey(of:)` makes it.
    func key(of urlString: String) -> Substring {
        if let entry = last.withLock({ $0 }), Self.url(urlString, startsWithOrigin: entry.prefix) {
            return entry.key
        }
        let (key, prefixLength) = RequestSpec.originKeyAndLength(of: urlString)
        let prefix = String(Substring(urlString.utf8.prefix(prefixLength)))
        // Only a whole `scheme://authority` may be reused: the prefix of a malformed URL
        // ("http:/x") would otherwise match every later URL of its scheme.
        guard Self.isWholeOrigin(prefix) else { return key }
        last.withLock { $0 = Entry(prefix: prefix, key: key) }
        return key
    }

    /// Whether `prefix` is `scheme://` followed by a non-empty authority.
    private static func isWholeOrigin(_ prefix: String) -> Bool {
        guard let separator = prefix.range(of: "://") else { return false }
        return separator.upperBound < prefix.endIndex && !prefix[..<separator.lowerBound].isEmpty
    }

    /// Whether `urlString` begins with `origin` and the authority ends there.
    private static func url(_ urlString: String, startsWithOrigin origin: String) -> Bool {
        var url = urlString, origin = origin
        return url.withUTF8 { url in
            origin.withUTF8 { origin in
                guard url.count >= origin.count, origin.count > 0,
                      memcmp(url.baseAddress!, origin.baseAddress!, origin.count) == 0 else { return false }
                guard url.count > origin.count else { return true }
                let next = url[origin.count]
                return next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#")
            }
        }
    }
}
