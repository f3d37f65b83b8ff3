import Foundation
import Salvo

/// The one rule for a URI a bulk download may fetch, shared by input lists and the command line.
enum BulkURI {
    /// The text as a URL when it is an absolute `http` or `https` URL with a host.
    ///
    /// Other schemes are refused here rather than at download time: `file:` would copy a
    /// local file and others reach services the list's author may not have meant.
    ///
    /// A space or a control character is refused before parsing, though Foundation would
    /// percent-encode it: in a list it most often means mirrors separated by spaces instead
    /// of TAB, which would otherwise become one URL that exists nowhere.
    static func parse(_ text: String) throws(BulkValueError) -> URL {
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw BulkValueError("'\(text)' holds a space or control character (separate mirrors with TAB)")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else {
            throw BulkValueError("'\(text)' is not an absolute http or https URL")
        }
        // Decoded: a host whose percent-escapes are not UTF-8 (`http://%FF/`) has none.
        guard let host = url.host, !host.isEmpty else { throw BulkValueError("'\(text)' has no host") }
        return url
    }
}
