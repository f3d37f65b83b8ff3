import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// A libcurl failure with curl's own code and message, kept for diagnostics inside the
/// `URLError` Salvo reports.
public struct CurlError: Error, Sendable, CustomStringConvertible {
    /// The `CURLcode` value.
    public let code: Int
    /// libcurl's error text for the transfer, or its generic text for the code.
    public let message: String

    /// `curl: (7) Failed to connect ...`, as the curl tool prints it.
    public var description: String { "curl: (\(code)) \(message)" }

    /// The `URLError` that URLSession would have reported for the same failure, with this
    /// error as its underlying error and its `userInfo` key `SalvoCurlCode`.
    public var urlError: URLError {
        URLError(Self.urlErrorCode(for: code, message: message), userInfo: [
            NSLocalizedDescriptionKey: message,
            NSUnderlyingErrorKey: self,
            "SalvoCurlCode": code,
        ])
    }

    /// `CURLE_PEER_FAILED_VERIFICATION`: the chain, a date or the host name failed.
    package static let peerVerificationFailed = Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
    /// `CURLE_SSL_PINNEDPUBKEYNOTMATCH`: the certificate's key is not among the pinned ones.
    package static let pinnedKeyMismatch = Int(CURLE_SSL_PINNEDPUBKEYNOTMATCH.rawValue)
    /// `CURLE_SSL_INVALIDCERTSTATUS`: no stapled OCSP response, or a bad one.
    package static let certificateStatusInvalid = Int(CURLE_SSL_INVALIDCERTSTATUS.rawValue)

    package static func urlErrorCode(for code: Int, message: String = "") -> URLError.Code {
        switch CURLcode(UInt32(truncatingIfNeeded: code)) {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // libcurl reports a reply without an HTTP status line as an HTTP/0.9 response it
            // may not accept, under this code; for the caller it is a bad server response.
            return message.contains("HTTP/0.9") ? .badServerResponse : .unsupportedURL
        case CURLE_URL_MALFORMAT: return .badURL
        case CURLE_COULDNT_RESOLVE_HOST: return .cannotFindHost
        case CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_SSL_CONNECT_ERROR: return .secureConnectionFailed
        case CURLE_PEER_FAILED_VERIFICATION:
            // libcurl keeps OpenSSL's verify result in its text ("SSL certificate problem:
            // certificate has expired"); URLSession tells a certificate's dates apart too.
            if message.contains("certificate has expired") { return .serverCertificateHasBadDate }
            if message.contains("certificate is not yet valid") { return .serverCertificateNotYetValid }
            return .serverCertificateUntrusted
        case CURLE_SSL_CACERT_BADFILE: return .serverCertificateUntrusted
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND:
            return .secureConnectionFailed
        case CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .serverCertificateUntrusted
        case CURLE_GOT_NOTHING: return .networkConnectionLost
        case CURLE_SEND_ERROR: return .networkConnectionLost
        case CURLE_RECV_ERROR:
            // libcurl 7.88 ends a response whose header block passed 300 KiB in one read as a
            // receive error: the server's fault, not a lost connection.
            return message.hasPrefix("Too large response headers") ? .badServerResponse : .networkConnectionLost
        case CURLE_PARTIAL_FILE: return .networkConnectionLost
        case CURLE_HTTP2, CURLE_HTTP2_STREAM: return .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY: return .badServerResponse
        // A range answer that does not continue the partial file.
        case CURLE_RANGE_ERROR: return .badServerResponse
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_TOO_MANY_REDIRECTS: return .httpTooManyRedirects
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_FILESIZE_EXCEEDED: return .dataLengthExceedsMaximum
        case CURLE_OUT_OF_MEMORY: return .cannotLoadFromNetwork
        case CURLE_WRITE_ERROR: return .cannotWriteToFile
        case CURLE_READ_ERROR: return .cannotLoadFromNetwork
        // libcurl had to send the body again (a reused connection found closed, an
        // authentication challenge) and could not go back to its start: only a stream,
        // already read from, cannot.
        case CURLE_SEND_FAIL_REWIND: return .requestBodyStreamExhausted
        case CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR: return .userAuthenticationRequired
        default: return .unknown
        }
    }

    /// Builds the error for a finished transfer, preferring the transfer's own detailed
    /// message (from `CURLOPT_ERRORBUFFER`) over the code's generic text.
    static func from(code: CURLcode, detail: UnsafePointer<CChar>?) -> CurlError {
        var message = detail.map { String(cString: $0) } ?? ""
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        return CurlError(code: Int(code.rawValue), message: message)
    }

    /// The same error with why the system refused a write (a full disk, a quota): libcurl
    /// only knows that the write callback gave up.
    package func withWriteErrno(_ number: Int32) -> CurlError {
        CurlError(code: code, message: "\(message): \(Self.systemMessage(for: number)) (errno \(number))")
    }

    /// The system's text for an `errno` value. `strerror_r`, not `strerror`: the loop threads
    /// of several sessions may ask at once, and `strerror` may format an unknown code into one
    /// static buffer.
    package static func systemMessage(for number: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { buffer in
            // An unknown code fails with EINVAL but may still leave glibc's "Unknown error N".
            _ = strerror_r(number, buffer.baseAddress!, buffer.count)
            return buffer[0] == 0 ? "unknown error \(number)" : String(cString: buffer.baseAddress!)
        }
    }
}
