import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// Downloads many files into a directory, safely, on Salvo's engine, and reports what
/// happens as it goes.
///
/// Entries are read lazily, one when a slot is free, so a list of millions holds in memory
/// only the files in flight. For each file:
///
/// - The name is the entry's `outputName`, else the response's `Content-Disposition` file
///   name, else the URL's last path component, reduced to one safe path component (never
///   `..`, never a separator; `index.html` when nothing is left). When two entries of a run
///   come to the same name, the later claim gets ` (1)`, ` (2)`, … before the extension.
/// - The body goes to `NAME.part`, with `NAME.part.json` beside it (the URL, the validator
///   and the bytes done). When the body is complete and the entry's checksum (if any)
///   matches, the partial file is renamed to `NAME` in one step and the sidecar removed:
///   a file under its final name is always complete and verified.
/// - Connection errors, timeouts and 408, 429, 500, 502, 503 and 504 are retried up to
///   `maxTries` per URI, with exponential back-off and jitter (`Retry-After` honoured for 429
///   and 503); an attempt after a cut-off body asks only for the rest (`Range` with
///   `If-Range`). Other 4xx fail the URI at once. When a URI fails for good, the entry's next
///   URI (a mirror) is tried.
/// - With `continuePartial`, an earlier run's `NAME.part` whose sidecar names one of the
///   entry's URIs is continued with `Range: bytes=N-` and `If-Range`; a server that answers
///   with the whole file (it changed, or ignores ranges) starts it over.
/// - With `split` above 1, a file whose server honours ranges is fetched as that many ranges
///   at once, written at their offsets into the one `NAME.part` (see `Options.split`).
///
/// ```swift
/// let downloader = BulkDownloader(options: .init(outputDirectory: URL(fileURLWithPath: "out")))
/// let reader = try BulkInputReader(contentsOfFile: "urls.txt")
/// for await event in downloader.events(reading: reader) {
///     if case let .finished(result) = event { print(result.file.entry.uris[0], result.outcome) }
/// }
/// ```
///
/// - Note: Cancelling (the task running `run`, the consumer of `events`, or `cancel()`)
///   starts no new file and cancels the files in flight, whose partial files and sidecars
///   are left to be continued by a later run with `continuePartial`; the run still ends with
///   its `summary`.
public final class BulkDownloader: Sendable {
    /// The options the downloader was made with.
    public let options: Options
    /// The engine every request runs on: the downloader drives Salvo's event loop itself,
    /// with no `Session` or `Request` per file.
    package let transport: BulkTransport
    /// The runs in progress, by id, for `cancel()`.
    private let runs = Mutex([UInt64: Task<Summary, Never>]())
    private let nextRunID = Mutex<UInt64>(0)

    /// Creates a downloader and its engine.
    ///
    /// Every request carries `options.headers` (and Salvo's `User-Agent` unless they name
    /// one); at most `options.connectionsPerHost` connections to a host are open at once; a
    /// transfer that receives nothing for `options.timeout` seconds or cannot connect in
    /// `options.connectTimeout` fails; compressed bodies are not decoded (a file is saved as
    /// the server sends it); bodies are read with a 100 KiB receive buffer; each request is
    /// limited to `options.maximumRatePerRequest` bytes per second when a rate is given.
    /// Proxies are taken from the environment (`http_proxy`, `https_proxy`, `no_proxy`, …),
    /// as curl takes them.
    ///
    /// - Parameter options: How to run.
    public init(options: Options) {
        self.options = options
        transport = BulkTransport(options: options)
    }

    // MARK: Running

    /// Downloads the files a closure hands out, one call per file until it returns `nil`.
    ///
    /// - Parameters:
    ///   - next: Returns the next entry, or `nil` at the end; called from one task at a time,
    ///     only when a file slot is free. A thrown error stops reading: files in flight
    ///     finish, and the summary's `inputError` says why.
    ///   - onEvent: Called with every event, from any thread; the last is `.summary`.
    /// - Returns: The summary, as the last event also gives it.
    @discardableResult
    public func run(next: @escaping @Sendable () async throws -> BulkEntry?,
                    onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async -> Summary {
        await launch { await self.loop(next: next, onEvent: onEvent) }
    }

    /// Downloads the entries of an asynchronous sequence.
    ///
    /// - Parameters:
    ///   - entries: The entries; read one at a time, only when a file slot is free.
    ///   - onEvent: Called with every event, from any thread; the last is `.summary`.
    /// - Returns: The summary.
    @discardableResult
    public func run<Entries: AsyncSequence & Sendable>(_ entries: Entries,
                                                       onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async -> Summary
    where Entries.Element == BulkEntry {
        await launch {
            var iterator = entries.makeAsyncIterator()
            return await self.loop(next: { try await iterator.next() }, onEvent: onEvent)
        }
    }

    /// Downloads the entries of an input list as it is read.
    ///
    /// - Parameters:
    ///   - reader: The list; the downloader owns it from now on. A bad line stops reading
    ///     (see `Summary.inputError`).
    ///   - onEvent: Called with every event, from any thread; the last is `.summary`.
    /// - Returns: The summary.
    @discardableResult
    public func run(reading reader: sending BulkInputReader, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async -> Summary {
        let source = Mutex(reader)
        return await run(next: { try source.withLock { try $0.next() } }, onEvent: onEvent)
    }

    /// The events of a run over the entries a closure hands out (see `run(next:onEvent:)`).
    /// The run starts at once; the stream ends after `.summary`. Ending the iteration early
    /// cancels the run.
    ///
    /// - Parameter next: Returns the next entry, or `nil` at the end.
    /// - Returns: The events.
    public func events(next: @escaping @Sendable () async throws -> BulkEntry?) -> AsyncStream<Event> {
        stream { onEvent in await self.run(next: next, onEvent: onEvent) }
    }

    /// The events of a run over an asynchronous sequence of entries.
    ///
    /// - Parameter entries: The entries.
    /// - Returns: The events.
    public func events<Entries: AsyncSequence & Sendable>(for entries: Entries) -> AsyncStream<Event>
    where Entries.Element == BulkEntry {
        stream { onEvent in await self.run(entries, onEvent: onEvent) }
    }

    /// The events of a run over an input list.
    ///
    /// - Parameter reader: The list; the downloader owns it from now on.
    /// - Returns: The events.
    public func events(reading reader: sending BulkInputReader) -> AsyncStream<Event> {
        let source = Mutex(reader)
        return events(next: { try source.withLock { try $0.next() } })
    }

    /// Cancels every run of this downloader: no new file starts, files in flight stop and are
    /// left to be continued, and each run ends with its summary.
    public func cancel() {
        let tasks = runs.withLock { Array($0.values) }
        for task in tasks { task.cancel() }
    }

    // MARK: Implementation

    /// Runs `body` in a task of its own that `cancel()` can reach, cancelled too when the
    /// calling task is.
    private func launch(_ body: @escaping @Sendable () async -> Summary) async -> Summary {
        let id = nextRunID.withLock { id -> UInt64 in
            id += 1
            return id
        }
        let task = Task { await body() }
        runs.withLock { $0[id] = task }
        defer { _ = runs.withLock { $0.removeValue(forKey: id) } }
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func stream(_ run: @escaping @Sendable (@escaping @Sendable (Event) -> Void) async -> Summary) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let task = Task {
            _ = await run { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return stream
    }

    /// The run: starts a file whenever fewer than `filesInFlight` are in flight, until the
    /// entries end, reading fails or the task is cancelled; then waits for the files in flight.
    private func loop(next: () async throws -> BulkEntry?, onEvent: @escaping @Sendable (Event) -> Void) async -> Summary {
        let started = ContinuousClock.now
        let claims = BulkNameClaims()
        let directoryLock = BulkDirectoryLock()
        let budget = options.maximumOverallRate.isUnlimited ? nil
            : BulkRateBudget(bytesPerSecond: options.maximumOverallRate.bytesPerSecond)
        let limit = max(1, options.filesInFlight)
        let runDirectoryPath = options.outputDirectory.path
        var summary = Summary()
        func count(_ result: FileResult) {
            switch result.outcome {
            case .succeeded:
                summary.succeeded += 1
                summary.bytes += result.bytes
            case .failed: summary.failed += 1
            case .cancelled: summary.cancelled += 1
            case .alreadyComplete: summary.alreadyComplete += 1
            }
        }
        await withTaskGroup(of: FileResult.self) { group in
            var inFlight = 0
            var index = 0
            while !Task.isCancelled {
                if inFlight >= limit, let result = await group.next() {
                    inFlight -= 1
                    count(result)
                    continue
                }
                let entry: BulkEntry?
                do {
                    entry = try await next()
                } catch {
                    summary.inputError = (error as? BulkInputError).map { "line \($0.line): \($0.reason)" } ?? "\(error)"
                    break
                }
                guard let entry, !Task.isCancelled else { break }
                let download = BulkFileDownload(file: File(index: index, entry: entry), transport: transport, options: options,
                                                runDirectoryPath: runDirectoryPath, claims: claims,
                                                directoryLock: directoryLock, budget: budget, onEvent: onEvent)
                index += 1
                inFlight += 1
                group.addTask {
                    let result = await download.run()
                    onEvent(.finished(result))
                    return result
                }
            }
            for await result in group { count(result) }
        }
        summary.wasCancelled = Task.isCancelled
        summary.overallRateWaits = budget?.pauses ?? 0
        let elapsed = ContinuousClock.now - started
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        onEvent(.summary(summary))
        return summary
    }
}
