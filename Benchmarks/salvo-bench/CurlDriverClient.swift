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

    init(loop: Loop, url: URL, protocol: BenchProtocol, inflight: Int) throws {
        let cLoop = loop == .socketAction ? CB_LOOP_SOCKET_ACTION : CB_LOOP_POLL
        let cProtocol = `protocol` == .h1 ? CB_HTTP1 : CB_H2C
        guard let driver = cb_driver_create(cLoop, cProtocol) else { throw BenchError("the libcurl driver could not start") }
        self.driver = driver
        self.url = url.absoluteString
        self.inflight = inflight
    }

    deinit {
        cb_driver_destroy(driver)
    }

    func run(count: Int) throws -> Int {
        let failures = cb_driver_run(driver, url, count, inflight)
        guard failures >= 0 else { throw BenchError("the libcurl driver's event loop failed") }
        return failures
    }

    /// The version of the libcurl the bench is linked with.
    static var libcurlVersion: String { String(cString: cb_curl_version()) }
}
