import Foundation

extension HTTPHeaders {
    /// The headers every `Session` sends unless told otherwise: `Accept-Encoding`,
    /// `Accept-Language` and `User-Agent`.
    public static let `default`: HTTPHeaders = [
        .defaultAcceptEncoding,
        .defaultAcceptLanguage,
        .defaultUserAgent,
    ]
}

extension HTTPHeader {
    /// `Accept-Encoding` listing the encodings the loaded libcurl decodes, best first:
    /// `br;q=1.0, gzip;q=0.9, deflate;q=0.8`, then `zstd` where libcurl has it.
    public static let defaultAcceptEncoding: HTTPHeader = {
        let curl = CurlVersion.current
        var encodings: [String] = []
        if curl.brotli { encodings.append("br") }
        if curl.libz { encodings.append(contentsOf: ["gzip", "deflate"]) }
        if curl.zstd { encodings.append("zstd") }
        return .acceptEncoding(qualityEncoded(encodings))
    }()

    /// `Accept-Language` from the process's preferred languages, at most six, with
    /// decreasing quality.
    public static let defaultAcceptLanguage: HTTPHeader = {
        .acceptLanguage(qualityEncoded(Array(Locale.preferredLanguages.prefix(6))))
    }()

    /// `User-Agent` in Alamofire's format, naming the executable, the operating system and
    /// Salvo where Alamofire names itself, e.g.
    /// `server/Unknown (server; build:Unknown; Linux 6.1.0) Salvo/0.1.0`. (libcurl 7.88 copies
    /// request header bytes one at a time, ~100 instructions each, so every byte of a default
    /// header costs every request.)
    public static let defaultUserAgent: HTTPHeader = {
        let info = Bundle.main.infoDictionary ?? [:]
        let executable = (info["CFBundleExecutable"] as? String) ?? ProcessInfo.processInfo.processName
        let bundle = (info["CFBundleIdentifier"] as? String) ?? executable
        let appVersion = (info["CFBundleShortVersionString"] as? String) ?? "Unknown"
        let appBuild = (info["CFBundleVersion"] as? String) ?? "Unknown"
        let os = ProcessInfo.processInfo.operatingSystemVersion
        let osName = "Linux \(os.majorVersion).\(os.minorVersion).\(os.patchVersion)"
        return .userAgent("\(executable)/\(appVersion) (\(bundle); build:\(appBuild); \(osName)) Salvo/\(SalvoInfo.version)")
    }()

    /// Joins values with `q` weights 1.0, 0.9, ... as Alamofire formats them.
    private static func qualityEncoded(_ values: [String]) -> String {
        values.enumerated().map { index, value in
            let quality = 1.0 - Double(index) * 0.1
            return "\(value);q=\(quality)"
        }.joined(separator: ", ")
    }
}
