import Foundation

extension TestServers {
    /// The fault server's `/redirect`, answering `status` with `Location: target` exactly.
    func faultRedirect(to target: String, status: Int = 302) throws -> URL {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try url(.fault, "/redirect?status=\(status)&to=\(encoded)")
    }

    /// How many requests the fault server has answered at `/count` so far.
    func faultCount() throws -> Int {
        let data = try Data(contentsOf: try url(.fault, "/count-peek"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["count"] as? Int ?? -1
    }

    /// How many requests the fault server saw under `/hit/<key>`.
    func faultHits(_ key: String) throws -> Int {
        let data = try Data(contentsOf: try url(.fault, "/hits?key=\(key)"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["hits"] as? Int ?? -1
    }
}
