internal import CCurl

/// Failures of the loop's own calls into libcurl (`curl_multi_perform`, `curl_multi_poll`),
/// which no transfer reports: each call's first failure is described once, with libcurl's
/// text, and every failure counted.
///
/// A failing `curl_multi_poll` returns at once; the loop pauses after one (see `EventLoop`)
/// rather than spin on a core without anyone hearing of it.
package struct MultiCallFailures {
    /// Failures per call name.
    package private(set) var counts: [String: Int] = [:]

    /// Records a failed call.
    ///
    /// - Parameters:
    ///   - call: The libcurl function, e.g. `curl_multi_poll`.
    ///   - code: Its `CURLMcode`.
    /// - Returns: The line to write, for the call's first failure; `nil` afterwards.
    package mutating func record(_ call: String, code: Int32) -> String? {
        counts[call, default: 0] += 1
        guard counts[call] == 1 else { return nil }
        let text = String(cString: curl_multi_strerror(CURLMcode(rawValue: code)))
        return "Salvo: \(call) failed (CURLMcode \(code): \(text)); further failures of it are not reported"
    }
}
