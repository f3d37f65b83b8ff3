import Foundation
import Salvo

/// Cookies from a file in the Netscape/Mozilla format that curl (`-c`), wget and browser
/// extensions write (aria2's `--load-cookies`), sent to the hosts they belong to.
///
/// Each line is a cookie of seven TAB-separated fields: domain, whether subdomains match
/// (`TRUE`/`FALSE`), path, whether only HTTPS may carry it (`TRUE`/`FALSE`), expiry in Unix
/// seconds (0 for a session cookie), name and value. A line starting with `#HttpOnly_` is a
/// cookie whose domain follows the prefix; other lines starting with `#`, blank lines and
/// lines of another shape are skipped, as curl skips them.
public struct BulkCookieFile: Hashable, Sendable {
    /// One cookie of the file.
    public struct Cookie: Hashable, Sendable {
        /// The domain, lower case, without a leading dot.
        public var domain: String
        /// Whether hosts below `domain` match too.
        public var includesSubdomains: Bool
        /// The path the cookie is limited to.
        public var path: String
        /// Whether only HTTPS requests carry it.
        public var isSecure: Bool
        /// When it expires, in Unix seconds; 0 for a session cookie, which never does here.
        public var expires: Int64
        /// The cookie's name.
        public var name: String
        /// The cookie's value.
        public var value: String
    }

    /// The cookies, in the file's order.
    public private(set) var cookies: [Cookie]

    /// Parses a cookie file's text.
    ///
    /// - Parameter text: The file's contents.
    public init(parsing text: String) {
        cookies = []
        // By `isNewline`: a CRLF file's "\r\n" is one Character, which "\n" never equals.
        for var line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#HttpOnly_") {
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 7 || fields.count == 6 else { continue }
            var domain = fields[0].lowercased()
            let leadingDot = domain.hasPrefix(".")
            if leadingDot { domain.removeFirst() }
            guard !domain.isEmpty, let expires = Int64(fields[4]), !fields[5].isEmpty else { continue }
            cookies.append(Cookie(domain: domain, includesSubdomains: leadingDot || fields[1].uppercased() == "TRUE",
                                  path: fields[2].isEmpty ? "/" : String(fields[2]), isSecure: fields[3].uppercased() == "TRUE",
                                  expires: expires, name: String(fields[5]), value: fields.count == 7 ? String(fields[6]) : ""))
        }
    }

    /// Reads and parses the cookie file at `path`.
    ///
    /// - Parameter path: The file's path.
    /// - Throws: The error reading it.
    public init(contentsOfFile path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        self.init(parsing: String(decoding: data, as: UTF8.self))
    }

    /// The `Cookie` header's value for a request to `url` at `now`: the cookies whose domain,
    /// path and security match it and that have not expired, longest path first (RFC 6265);
    /// `nil` when none does.
    ///
    /// - Parameters:
    ///   - url: The request's URL.
    ///   - now: The time, in Unix seconds. The current time by default.
    public func header(for url: URL, now: Int64 = Int64(Date().timeIntervalSince1970)) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let isSecure = url.scheme?.lowercased() == "https"
        let path = url.path.isEmpty ? "/" : url.path
        let matching = cookies.filter { cookie in
            guard cookie.expires == 0 || cookie.expires > now, !cookie.isSecure || isSecure else { return false }
            let domainMatches = host == cookie.domain || (cookie.includesSubdomains && host.hasSuffix("." + cookie.domain))
            return domainMatches && Self.pathMatches(path, cookie.path)
        }
        guard !matching.isEmpty else { return nil }
        return matching.enumerated()
            .sorted { $0.element.path.count != $1.element.path.count ? $0.element.path.count > $1.element.path.count : $0.offset < $1.offset }
            .map { "\($0.element.name)=\($0.element.value)" }
            .joined(separator: "; ")
    }

    /// RFC 6265's path-match: the same path, or one below the cookie's.
    private static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        guard path.hasPrefix(cookiePath) else { return false }
        return path.count == cookiePath.count || cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }
}
