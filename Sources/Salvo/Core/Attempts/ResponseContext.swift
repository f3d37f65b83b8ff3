import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt's request and, once it completes, its response head and metrics, with the
/// Foundation objects (`URLRequest`, `HTTPURLResponse`) built on first access and cached.
///
/// Shared by the `Request` and every response value made from it, so the cost is paid at
/// most once, and only by code that reads them.
final class ResponseContext: Sendable {
    private struct State {
        var head: ResponseHead?
        var metrics: TransferMetrics?
        var request: URLRequest?
        var response: HTTPURLResponse??
        /// The response built for a head announced while the transfer ran (`response(for:)`),
        /// reused by `httpResponse` when the final head is the same.
        var announced: (head: ResponseHead, response: HTTPURLResponse)?
        /// The attempt's `URLSessionTask`, once someone asked for it (first contexts only).
        var task: URLSessionTask?
    }

    /// Records that a prepared attempt was handed to the engine.
    func markSent() {
        sent.store(true, ordering: .releasing)
    }

    let spec: RequestSpec
    /// For a redirect hop, the context of the attempt's first request.
    let origin: ResponseContext?
    /// Whether the request went to the engine; `false` for one an adapter failed to adapt,
    /// which is recorded so that the request and its response still report it, and for an
    /// eager request's attempt until its first resume sends it.
    var wasSent: Bool { sent.load(ordering: .acquiring) }
    private let sent: Atomic<Bool>
    /// Whether this is an eager request's attempt, made (its `URLRequest` and task announced)
    /// at set-up, before the first resume sends it.
    let isPrepared: Bool
    /// Whether the attempt's request exists for its handlers and task: sent, or prepared.
    var isCreated: Bool { isPrepared || wasSent }
    /// The stored response the session's cache served or is revalidating, if any.
    let cacheEntry: CachedURLResponse?
    /// Whether `cacheEntry` answered the attempt without anything being sent.
    let servedFromCache: Bool
    private let state: Mutex<State>

    init(spec: RequestSpec, urlRequest: URLRequest?, head: ResponseHead? = nil, origin: ResponseContext? = nil, sent: Bool = true,
         prepared: Bool = false, cacheEntry: CachedURLResponse? = nil, servedFromCache: Bool = false) {
        self.spec = spec
        self.origin = origin
        self.sent = Atomic(sent)
        isPrepared = prepared
        self.cacheEntry = cacheEntry
        self.servedFromCache = servedFromCache
        state = Mutex(State(head: head, metrics: nil, request: urlRequest, response: nil))
    }

    /// The attempt's task, made by `make` the first time it is asked for.
    func task(_ make: () -> URLSessionTask) -> URLSessionTask {
        if let task = state.withLock({ $0.task }) { return task }
        let made = make()
        return state.withLock { state in
            if let task = state.task { return task }
            state.task = made
            return made
        }
    }

    /// Makes `response` the attempt's `HTTPURLResponse`: the stored object a cached answer
    /// hands out, rather than one rebuilt from its head.
    func prime(_ response: HTTPURLResponse) {
        state.withLock { $0.response = .some(response) }
    }

    /// Records how the attempt ended; called once, when its transfer completes.
    func complete(head: ResponseHead?, metrics: TransferMetrics) {
        state.withLock {
            $0.head = head
            $0.metrics = metrics
        }
    }

    var head: ResponseHead? { state.withLock { $0.head } }
    var metrics: TransferMetrics? { state.withLock { $0.metrics } }

    /// The request the attempt started with (before redirects), as `Request.request` reports.
    var attemptRequest: URLRequest { (origin ?? self).urlRequest }

    var urlRequest: URLRequest {
        if let request = state.withLock({ $0.request }) { return request }
        let built = spec.urlRequest
        state.withLock { $0.request = built }
        return built
    }

    var httpResponse: HTTPURLResponse? {
        let (cached, head, announced) = state.withLock { ($0.response, $0.head, $0.announced) }
        if let cached { return cached }
        guard let head else { return nil }
        let built: HTTPURLResponse?
        if let announced, announced.head.isSame(as: head) {
            built = announced.response
        } else {
            built = makeResponse(head)
        }
        state.withLock { $0.response = .some(built) }
        return built
    }

    /// The `HTTPURLResponse` of a head announced before the transfer ended (for
    /// `onHTTPResponse` handlers and stream validation), kept so that the completion's
    /// `response` is the same object, built once.
    func response(for head: ResponseHead) -> HTTPURLResponse? {
        if let announced = state.withLock({ $0.announced }), announced.head.isSame(as: head) { return announced.response }
        guard let built = makeResponse(head) else { return nil }
        state.withLock { $0.announced = (head, built) }
        return built
    }

    /// The response for `head`, with the request's own `URL` when the transfer ended where
    /// it began (no second parse of the same string).
    private func makeResponse(_ head: ResponseHead) -> HTTPURLResponse? {
        guard head.url == spec.urlString else { return head.makeHTTPURLResponse() }
        return HTTPURLResponse(url: spec.url, statusCode: head.statusCode, httpVersion: head.versionText, headerFields: head.headerFields)
    }
}

extension ResponseHead {
    /// Whether `other` is the same response: status, URL and header bytes.
    func isSame(as other: ResponseHead) -> Bool {
        statusCode == other.statusCode && url == other.url && rawHeaders == other.rawHeaders
    }

    /// The raw header lines as the dictionary Foundation expects; a repeated name's values
    /// are joined with ", ", as Foundation does. Built from the last response's dictionary
    /// when the names are the same (`HeaderFieldsTemplate`), else by `parsedHeaderFields`.
    var headerFields: [String: String] {
        HeaderFieldsTemplate.shared.fields(of: self)
    }

    /// Parses the raw header lines into the dictionary Foundation expects; a repeated
    /// name's values are joined with ", ", as Foundation does.
    ///
    /// Works on the bytes (see `forEachField`). Names are compared as decoded (invalid UTF-8
    /// repaired, as `String(decoding:)` repairs it), ignoring ASCII case: the names the
    /// dictionary's keys are. (Splitting a `String` by `Character` and trimming with
    /// `CharacterSet` cost ~20 µs per response.)
    var parsedHeaderFields: [String: String] {
        var fields = [String: String](minimumCapacity: 16)
        // The names seen so far, as byte ranges on the stack, to find a repeated name without
        // hashing: a response has a dozen headers, and a byte comparison costs less than a
        // dictionary lookup. Past `linearLimit` names (a hostile server's thousands), a
        // dictionary of decoded names takes over.
        let linearLimit = 32
        var spellings: [String: String]?
        withUnsafeTemporaryAllocation(of: SeenName.self, capacity: linearLimit) { seen in
            var seenCount = 0
            forEachField { bytes, name, value in
                let valueText = Self.text(bytes, value)
                guard spellings == nil else {
                    let key = Self.nameKey(bytes, name)
                    if let first = spellings?[key] {
                        fields[first]! += ", " + valueText
                    } else {
                        let spelling = Self.text(bytes, name)
                        spellings?[key] = spelling
                        fields[spelling] = valueText
                    }
                    return
                }
                let isASCII = Self.isASCII(bytes, name)
                for index in 0..<seenCount where Self.sameName(bytes, seen[index].name, seen[index].isASCII, name, isASCII) {
                    // Repeated names are rare: the first spelling is made again from its bytes.
                    fields[Self.text(bytes, seen[index].name)]! += ", " + valueText
                    return
                }
                fields[Self.text(bytes, name)] = valueText
                if seenCount < linearLimit {
                    seen.initializeElement(at: seenCount, to: SeenName(name: name, isASCII: isASCII))
                    seenCount += 1
                    return
                }
                // All these names differ from one another, as decoded names compare.
                var byKey = [String: String](minimumCapacity: 2 * linearLimit)
                for index in 0..<seenCount {
                    byKey[Self.nameKey(bytes, seen[index].name)] = Self.text(bytes, seen[index].name)
                }
                byKey[Self.nameKey(bytes, name)] = Self.text(bytes, name)
                spellings = byKey
            }
        }
        return fields
    }

    /// A header name's place in the raw bytes, and whether it is ASCII (`headerFields`).
    private struct SeenName {
        var name: Range<Int>
        var isASCII: Bool
    }

    /// The value of one header (repeated lines joined with ", "), found without building the
    /// whole dictionary; names compared as `headerFields` compares them.
    package func value(forHeader name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted -> String? in
            // An ASCII name (every name asked for in practice) is only ever the same as a line's
            // name of the same bytes, ignoring case: any other byte decodes to something that
            // is not ASCII. So no allocation and no decoding for it.
            let wantedIsASCII = wanted.allSatisfy { $0 < 0x80 }
            let lowered = wantedIsASCII ? [] : wanted.map(Self.asciiLower)
            var found: String?
            forEachField { bytes, nameRange, valueRange in
                if wantedIsASCII {
                    guard Self.isASCIIName(bytes, nameRange, wanted) else { return }
                } else {
                    guard Array(Self.nameKey(bytes, nameRange).utf8) == lowered else { return }
                }
                let value = Self.text(bytes, valueRange)
                found = found.map { $0 + ", " + value } ?? value
            }
            return found
        }
    }

    /// The values of every line of one header, in order, for an ASCII `name` (compared
    /// ignoring case): for a header whose lines cannot be joined, such as `Set-Cookie`.
    package func values(forHeader name: String) -> [String] {
        var name = name
        return name.withUTF8 { wanted -> [String] in
            var found: [String] = []
            forEachField { bytes, nameRange, valueRange in
                guard Self.isASCIIName(bytes, nameRange, wanted) else { return }
                found.append(Self.text(bytes, valueRange))
            }
            return found
        }
    }

    /// Whether a line's name is `wanted`, an ASCII name, ignoring ASCII case: byte by byte,
    /// with no allocation and no decoding.
    private static func isASCIIName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == wanted.count else { return false }
        var index = 0
        while index < wanted.count {
            if asciiLower(bytes[name.lowerBound + index]) != asciiLower(wanted[index]) { return false }
            index += 1
        }
        return true
    }

    /// Whether two names are the same, ignoring ASCII case, as decoded; compared byte by byte
    /// when both are ASCII (the usual case), when decoding changes nothing.
    private static func sameName(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, _ firstIsASCII: Bool,
                                 _ second: Range<Int>, _ secondIsASCII: Bool) -> Bool {
        guard firstIsASCII && secondIsASCII else { return nameKey(bytes, first) == nameKey(bytes, second) }
        guard first.count == second.count else { return false }
        var index = 0
        while index < first.count {
            if asciiLower(bytes[first.lowerBound + index]) != asciiLower(bytes[second.lowerBound + index]) { return false }
            index += 1
        }
        return true
    }

    /// A name as decoded, ASCII letters lowercased: what two names are compared by.
    private static func nameKey(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: text(bytes, range).utf8.map(asciiLower), as: UTF8.self)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var bits: UInt8 = 0
        for index in range { bits |= bytes[index] }
        return bits < 0x80
    }

    /// Calls `body` with the bounds of each header line's name and value in the raw bytes, in
    /// order: lines end at CR or LF; the first line (the status line), lines without a colon
    /// and lines with an empty name are skipped; names and values lose the optional
    /// whitespace (spaces and tabs) around them.
    func forEachField(_ body: (UnsafeBufferPointer<UInt8>, Range<Int>, Range<Int>) -> Void) {
        rawHeaders.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            // The first byte equal to `byte` in `from..<to`, or `to`: memchr reads a line in a
            // few word-sized steps where a byte loop took ~7 instructions a byte.
            func find(_ byte: UInt8, from: Int, to: Int) -> Int {
                guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
                return UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
            var index = 0
            var isStatusLine = true
            // The next LF, kept across the lines a bare CR ends before it: looked for again
            // from each such line, a block of CRs before one LF would be read quadratically.
            var newline = -1
            while index < count {
                let start = index
                if newline < index { newline = find(0x0A, from: index, to: count) }
                let end = find(0x0D, from: index, to: newline)
                index = end
                while index < count, bytes[index] == 0x0D || bytes[index] == 0x0A { index += 1 }
                if isStatusLine {
                    isStatusLine = false
                    continue
                }
                let colon = find(0x3A, from: start, to: end)
                guard colon < end else { continue }
                let name = Self.trimmed(bytes, start..<colon)
                guard !name.isEmpty else { continue }
                body(bytes, name, Self.trimmed(bytes, (colon + 1)..<end))
            }
        }
    }

    /// `range` without spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
        while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
        return low..<high
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    func makeHTTPURLResponse() -> HTTPURLResponse? {
        guard let url = URL(string: url) else { return nil }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: versionText, headerFields: headerFields)
    }

    /// `HTTP/1.1`, `HTTP/2`, ...: constants for the usual versions (an interpolation costs
    /// more than the rest of building the response's fields).
    var versionText: String {
        switch httpVersion {
        case "1.1": return "HTTP/1.1"
        case "2": return "HTTP/2"
        case "1.0": return "HTTP/1.0"
        case "3": return "HTTP/3"
        default: return "HTTP/" + httpVersion
        }
    }
}
