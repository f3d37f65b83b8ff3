internal import CCurl

/// The check every libcurl option and info call passes, in debug builds: a call libcurl
/// refuses as misuse (a bad argument, an option given the wrong kind of value, out of memory)
/// is a bug in Salvo and stops a debug build there; an option, info or feature this libcurl
/// lacks is not (Salvo runs on libcurls older or smaller than the one it is built with, and
/// asks for some features only to use them when present). Release builds check nothing.
package enum CurlCheck {
    /// Checks a `curl_easy_setopt` or `curl_easy_getinfo` result.
    @inline(__always)
    static func easy(_ code: CURLcode, _ what: StaticString, _ option: UInt32, file: StaticString = #fileID, line: UInt = #line) {
        assert(code == CURLE_OK || isMissingFeature(code),
               "\(what)(\(option)) failed with CURLcode \(code.rawValue): \(String(cString: curl_easy_strerror(code)))",
               file: file, line: line)
    }

    /// Checks a `curl_multi_setopt` result.
    @inline(__always)
    static func multi(_ code: CURLMcode, _ option: UInt32, file: StaticString = #fileID, line: UInt = #line) {
        assert(code == CURLM_OK || code == CURLM_UNKNOWN_OPTION,
               "curl_multi_setopt(\(option)) failed with CURLMcode \(code.rawValue): \(String(cString: curl_multi_strerror(code)))",
               file: file, line: line)
    }

    /// Checks a `curl_share_setopt` result.
    @inline(__always)
    static func share(_ code: CURLSHcode, _ option: UInt32, file: StaticString = #fileID, line: UInt = #line) {
        assert(code == CURLSHE_OK || code == CURLSHE_NOT_BUILT_IN,
               "curl_share_setopt(\(option)) failed with CURLSHcode \(code.rawValue)", file: file, line: line)
    }

    /// Results that mean "this libcurl does not have it" rather than "Salvo asked wrongly".
    static func isMissingFeature(_ code: CURLcode) -> Bool {
        code == CURLE_UNKNOWN_OPTION || code == CURLE_NOT_BUILT_IN || code == CURLE_UNSUPPORTED_PROTOCOL
    }
}
