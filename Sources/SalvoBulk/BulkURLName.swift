import Foundation
import Salvo

/// The name a URL gives its file: its last path component, made safe and short enough.
///
/// Foundation's `lastPathComponent` decodes and splits the whole path anew for every call,
/// a few microseconds each, paid once per file of a run. A path made only of letters,
/// digits, `-`, `.`, `_`, `~` and `/`, not ending in `/`, decodes to itself, so its last
/// component is read straight from the URL's text; any other path is left to Foundation.
enum BulkURLName {
    /// The URL's last path component as a safe file name, or `nil`.
    static func name(of url: URL) -> String? {
        NetworkFileName.sanitized(lastPathComponent(of: url)).map(BulkNameClaims.fitted)
    }

    /// What `url.lastPathComponent` returns.
    static func lastPathComponent(of url: URL) -> String {
        if url.baseURL == nil, let plain = plainLastSegment(url.absoluteString) { return plain }
        return url.lastPathComponent
    }

    /// The last segment of an absolute URL's path when the path is plain (see the type), or
    /// `nil` when it is not or has no segment, or the text does not begin with a scheme
    /// and "//" (a colon of a relative reference's query is no scheme's).
    static func plainLastSegment(_ text: String) -> String? {
        var utf8 = text.utf8[...]
        // The scheme, then "//" and the authority, which ends at the first "/", "?" or "#".
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), isScheme(utf8[..<colon]) else { return nil }
        utf8 = utf8[utf8.index(after: colon)...]
        guard utf8.starts(with: "//".utf8) else { return nil }
        utf8 = utf8.dropFirst(2)
        guard let pathStart = utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
              utf8[pathStart] == UInt8(ascii: "/") else { return nil }
        let rest = utf8[pathStart...]
        let path = rest[..<(rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex)]
        guard path.last != UInt8(ascii: "/"), path.allSatisfy(isPlain) else { return nil }
        let lastSlash = path.lastIndex(of: UInt8(ascii: "/"))!
        return String(decoding: path[path.index(after: lastSlash)...], as: UTF8.self)
    }

    /// RFC 3986's `scheme`: a letter, then letters, digits, `+`, `-` and `.`.
    private static func isScheme(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        guard let first = bytes.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }
}
