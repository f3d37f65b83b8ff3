import Foundation

extension TestServers {
    /// httpbin's `/redirect-to`, answering `status` with `Location: target`.
    func redirect(to target: String, status: Int = 302) throws -> URL {
        var components = URLComponents(url: try url(.httpbin, "/redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "url", value: target), URLQueryItem(name: "status_code", value: String(status))]
        return components.url!
    }
}
