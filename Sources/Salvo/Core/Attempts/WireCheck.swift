import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The last look at a request before its bytes are written: what a caller, an adapter or a
/// redirecting server put in it must not change the request's framing or leave HTTP.
///
/// A CR or LF in a header value ends the line there, and what follows is read by the server
/// as more headers or as a second request (smuggling); NUL cuts the line short. libcurl
/// sends header lines as they are, so they are refused here, the one place every attempt
/// and every redirect hop passes before reaching the engine.
package enum WireCheck {
    /// Why a request must not be sent, or `nil` when it may.
    static func failure(method: HTTPMethod, headers: HTTPHeaders, originKey: Substring, url: String) -> AFError? {
        if let failure = schemeFailure(originKey: originKey, url: url) { return failure }
        if !isToken(method.rawValue) { return .urlRequestValidationFailed(reason: .invalidHTTPMethod(method.rawValue)) }
        return headers.isEmpty ? nil : headerFailure(headers)
    }

    /// The origin key (lowercased `scheme://authority`, a slice of `url` when it has no
    /// capitals) of an `http` or `https` URL with a host, as the engine counts connections by
    /// it; `nil` for any URL `schemeFailure` refuses. For clients of the engine other than the
    /// request layer (the bulk downloader).
    package static func webOriginKey(of url: String) -> Substring? {
        let key = RequestSpec.originKey(of: url)
        return schemeFailure(originKey: key, url: url) == nil ? key : nil
    }

    /// Only `http` and `https` with a host: a local file, `gopher` (raw bytes to any port),
    /// `dict`, `ftp` and the rest fail as URLSession fails a scheme it does not speak.
    static func schemeFailure(originKey: Substring, url: String) -> AFError? {
        // Byte comparisons: a generic `starts(with:)` cost ~300 instructions per request.
        let isWeb = originKey.utf8.withContiguousStorageIfAvailable { key -> Int in
            guard key.count >= 7, key[0] == UInt8(ascii: "h"), key[1] == UInt8(ascii: "t"), key[2] == UInt8(ascii: "t"),
                  key[3] == UInt8(ascii: "p") else { return 0 }
            if key[4] == UInt8(ascii: ":") && key[5] == UInt8(ascii: "/") && key[6] == UInt8(ascii: "/") { return 7 }
            if key.count >= 8 && key[4] == UInt8(ascii: "s") && key[5] == UInt8(ascii: ":") && key[6] == UInt8(ascii: "/")
                && key[7] == UInt8(ascii: "/") { return 8 }
            return 0
        } ?? (originKey.hasPrefix("http://") ? 7 : originKey.hasPrefix("https://") ? 8 : 0)
        guard isWeb > 0 else {
            var info: [String: Any] = [NSLocalizedDescriptionKey: "only http and https URLs are fetched"]
            if let failing = URL(string: url) { info[NSURLErrorFailingURLErrorKey] = failing }
            return .sessionTaskFailed(error: URLError(.unsupportedURL, userInfo: info))
        }
        // "http:///ok": no host at all (libcurl would take "ok" for one).
        guard originKey.utf8.count > isWeb else { return .invalidURL(url: url) }
        return nil
    }

    /// The first header whose name is not a token or whose value holds CR, LF or NUL.
    static func headerFailure(_ headers: HTTPHeaders) -> AFError? {
        for header in headers {
            if !isToken(header.name) { return .urlRequestValidationFailed(reason: .invalidHeaderName(header.name)) }
            if !isFieldValue(header.value) { return .urlRequestValidationFailed(reason: .invalidHeaderValue(name: header.name)) }
        }
        return nil
    }

    /// RFC 9110's `token`: one or more of `tchar`.
    package static func isToken(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            for byte in bytes where !isTokenByte(byte) { return false }
            return true
        }
    }

    /// No CR, LF or NUL. Other bytes, obs-text included, go as they are, as URLSession sends them.
    package static func isFieldValue(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where byte == 0x0D || byte == 0x0A || byte == 0 { return false }
            return true
        }
    }

    @inline(__always)
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        if (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
