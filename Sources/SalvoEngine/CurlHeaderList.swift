internal import CCurl

/// A `curl_slist` of request header lines, built off the loop thread and freed when the
/// transfer that owns it goes away.
package final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    package init() {}

    deinit {
        curl_slist_free_all(list)
    }

    /// Appends a raw line such as `Name: value`, or `Name:` to suppress a header libcurl
    /// would add by itself.
    package func append(_ line: String) {
        list = line.withCString { curl_slist_append(list, $0) }
    }

    /// Appends the header `name: value`.
    package func append(name: String, value: String) {
        append(Self.line(name: name, value: value))
    }

    /// The line libcurl (and curl's `-H`) takes for a header: `Name: value`, or `Name;` for an
    /// empty value, since `Name:` would remove the header instead.
    package static func line(name: String, value: String) -> String {
        value.isEmpty ? "\(name);" : "\(name): \(value)"
    }
}
