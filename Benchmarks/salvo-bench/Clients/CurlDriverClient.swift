import CurlBaseline
import Foundation

/// The raw libcurl baseline: the C driver of Benchmarks/CurlBaseline.
final class CurlDriverClient: DispatchWorkload {
    enum Loop {
        case socketAction, poll
    }

    private let driver: OpaquePointer
    private let url: String
    private let inflight: Int

    /// - Parameters:
    ///   - caFile: The CA certificates a TLS case verifies against (`CURLOPT_CAINFO`).
    ///   - headerLines: Request header lines every request sends, with decoding on.
    init(loop: Loop, url: URL, protocol: BenchProtocol, inflight: Int, caFile: String? = nil, headerLines: [String] = []) throws {
        let cLoop = loop == .socketAction ? CB_LOOP_SOCKET_ACTION : CB_LOOP_POLL
        let cProtocol = switch `protocol` {
        case .h1: CB_HTTP1
        case .h2c: CB_H2C
        case .h1s: CB_H1S
        case .h2: CB_H2
        }
        guard let driver = cb_driver_create(cLoop, cProtocol) else { throw BenchError("the libcurl driver could not start") }
        self.driver = driver
        if let caFile, cb_driver_set_ca_file(driver, caFile) != 0 {
            cb_driver_destroy(driver)
            throw BenchError("the libcurl driver could not take the CA file")
        }
        if !headerLines.isEmpty {
            let copies = headerLines.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let status = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
                cb_driver_send_headers(driver, $0.baseAddress, $0.count)
            }
            guard status == 0 else {
                cb_driver_destroy(driver)
                throw BenchError("the libcurl driver could not take the header lines")
            }
        }
        self.url = url.absoluteString
        self.inflight = inflight
    }

    deinit {
        cb_driver_destroy(driver)
    }

    func run(count: Int, times: RequestTimes?) throws -> Int {
        // The driver times each request in C, where it adds the handle and sees it done.
        let failures = times.map { times in times.fill(count: count) { cb_driver_run(driver, url, count, inflight, $0) } }
            ?? cb_driver_run(driver, url, count, inflight, nil)
        guard failures >= 0 else { throw BenchError("the libcurl driver's event loop failed") }
        return failures
    }

    /// libcurl's built-in CA bundle, which a program that names none verifies against.
    static var defaultCAFile: String? { cb_default_ca_file().map { String(cString: $0) } }

    /// The version of the libcurl the bench is linked with.
    static var libcurlVersion: String { String(cString: cb_curl_version()) }
}
