internal import CCurl

/// What the libcurl loaded at run time is and can do, read once.
///
/// The library may differ from the headers Salvo was built against, so features are
/// taken from `curl_version_info` rather than from compile-time macros.
package struct CurlVersion: Sendable {
    /// The version as text, e.g. `7.88.1`.
    package let version: String
    /// The version as `0xMMmmpp`.
    package let number: UInt32
    /// Whether libcurl can decode brotli (`br`).
    package let brotli: Bool
    /// Whether libcurl can decode zstd.
    package let zstd: Bool
    /// Whether libcurl can decode gzip and deflate.
    package let libz: Bool
    /// Whether libcurl speaks HTTP/2.
    package let http2: Bool
    /// The TLS library's name and version.
    package let ssl: String?

    /// Versions before 8.0 fail a request that reuses an h2c prior-knowledge connection
    /// ("Error in the HTTP2 framing layer"), so only the request that opens one may ask
    /// for prior knowledge.
    package var reusesPriorKnowledgeConnections: Bool { number >= 0x08_00_00 }

    /// Whether libcurl can enforce every `TLSTrust` setting: in-memory anchors arrived in
    /// 7.77, and public key pinning and stapled OCSP checks need OpenSSL underneath (the
    /// backend Salvo's packages build with). A trust evaluation refuses to send otherwise,
    /// rather than send with a check silently missing.
    package var enforcesTLSTrust: Bool { number >= 0x07_4D_00 && (ssl?.hasPrefix("OpenSSL") ?? false) }

    /// The libcurl in this process.
    package static let current: CurlVersion = {
        CurlGlobal.ensureInitialized()
        guard let info = curl_version_info(SALVO_CURLVERSION_NOW)?.pointee else {
            return CurlVersion(version: "unknown", number: 0, brotli: false, zstd: false, libz: false, http2: false, ssl: nil)
        }
        let features = info.features
        return CurlVersion(
            version: info.version.map { String(cString: $0) } ?? "unknown",
            number: UInt32(info.version_num),
            brotli: features & CURL_VERSION_BROTLI != 0,
            zstd: features & CURL_VERSION_ZSTD != 0,
            libz: features & CURL_VERSION_LIBZ != 0,
            http2: features & CURL_VERSION_HTTP2 != 0,
            ssl: info.ssl_version.map { String(cString: $0) }
        )
    }()
}
