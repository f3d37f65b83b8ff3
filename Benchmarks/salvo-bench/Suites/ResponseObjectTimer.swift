import Synchronization
import Foundation
import Salvo
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Measures Foundation's `HTTPURLResponse(url:statusCode:httpVersion:headerFields:)` alone,
/// on the very header fields nginx sends for `/small` in the case being measured.
///
/// Reading `response.response` means building that object, and Foundation's initializer
/// canonicalizes every header name (`capitalized`, a case-insensitive compare through
/// `NSString`): about 0.9 µs per header on this machine. No client that hands out a Foundation
/// `HTTPURLResponse` can spend less than this per request, so the realistic rows are read
/// beside it.
enum ResponseObjectTimer {
    /// Fetches one response with `session`, then builds its `HTTPURLResponse` `iterations`
    /// times (after a warm-up) on the calling thread.
    /// - Returns: CPU microseconds per initializer call, the calling thread's alone.
    static func microsecondsPerResponse(session: Session, url: URL, iterations: Int) throws -> Double {
        let done = DispatchSemaphore(value: 0)
        let fetched = Mutex<HTTPURLResponse?>(nil)
        session.request(url).response(queue: .global()) { response in
            fetched.withLock { $0 = response.response }
            done.signal()
        }
        done.wait()
        guard let sample = fetched.withLock({ $0 }) else { throw BenchError("no response to time HTTPURLResponse on") }
        var fields: [String: String] = [:]
        for (name, value) in sample.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        var sink = 0
        for _ in 0..<max(iterations / 10, 100) { sink &+= make(url, fields) }
        let start = ThreadCPUClock.nanoseconds()
        for _ in 0..<iterations { sink &+= make(url, fields) }
        let elapsed = ThreadCPUClock.nanoseconds() - start
        guard sink != 0 else { throw BenchError("HTTPURLResponse built nothing") }
        return Double(elapsed) / 1e3 / Double(iterations)
    }

    @inline(never)
    private static func make(_ url: URL, _ fields: [String: String]) -> Int {
        HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)?.statusCode ?? 0
    }
}
