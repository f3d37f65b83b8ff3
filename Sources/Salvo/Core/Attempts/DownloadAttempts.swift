import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download's part in each attempt: the partial file the engine writes, moving it into
/// place when the response is complete and valid, removing it otherwise, and resume data.
///
/// One partial file serves every attempt and redirect hop of a request: a hop's body is
/// dropped by the engine, and a retry cuts the file back to where it must continue (the
/// start, or the resumed offset).
final class DownloadAttempts: AttemptHooks {
    private struct State {
        /// The partial file, while the download owns one.
        var partialPath: String?
        var fileURL: URL?
        /// Validators are running: the file is still the partial one, and `fileURL` says so.
        var validating = false
        var resumeData: Data?
        var producesResumeData = false
        /// Set when the request finishes; resume-data handlers added later are answered by
        /// their caller.
        var finishing = false
        var resumeDataHandlers: [@Sendable (Data?) -> Void] = []
        /// What the last transfer left: where it was, its response and the file's size.
        var lastURL: String?
        var lastHead: ResponseHead?
        var size: Int64 = 0
        /// The start of the `Range` a resumed download asks for (its partial file's last
        /// byte, which the file keeps), when this download resumes one; `nil` for a file the
        /// download made itself.
        var resumedFrom: Int64?
        /// A resumed download was answered with the whole body, which started its file over.
        var restartedResume = false
        /// The body of the last attempt's error answer to a resumed download, kept beside the
        /// partial file (which stays whole for a retry).
        var errorBodyPath: String?
    }

    let destination: DownloadRequest.Destination?
    /// The resume data the request was made from, if any.
    let resumingFrom: DownloadResumeData?
    private let state = Mutex(State())

    init(destination: DownloadRequest.Destination?, resumingFrom: DownloadResumeData?) {
        self.destination = destination
        self.resumingFrom = resumingFrom
    }

    var sendsBodySource: Bool { false }
    /// Where the file is: in place once moved there, the partial file while validators run
    /// (Alamofire validates a file already moved), `nil` otherwise.
    var fileURL: URL? {
        state.withLock { state in
            state.fileURL ?? (state.validating ? state.partialPath.map { URL(fileURLWithPath: $0, isDirectory: false) } : nil)
        }
    }

    /// Runs a validator with `fileURL` pointing at the partial file.
    func validating<Result>(_ body: () -> Result) -> Result {
        state.withLock { $0.validating = true }
        defer { state.withLock { $0.validating = false } }
        return body()
    }
    var resumeData: Data? { state.withLock { $0.resumeData } }
    var downloadedSize: Int64 { state.withLock { $0.size } }
    /// The partial file, before it is moved into place.
    var partialFileURL: URL? { state.withLock { $0.partialPath }.map { URL(fileURLWithPath: $0, isDirectory: false) } }

    /// Asks for resume data when the cancelled request finishes; `handler` gets it then.
    /// Asks for resume data when the request finishes. Returns `false` when the request has
    /// already finished, in which case `handler` will not be called by the request and the
    /// caller must answer it itself (the decision is taken under the same lock as the finish,
    /// so the handler runs exactly once either way).
    @discardableResult
    func produceResumeData(then handler: (@Sendable (Data?) -> Void)?) -> Bool {
        state.withLock {
            $0.producesResumeData = true
            guard !$0.finishing else { return false }
            if let handler { $0.resumeDataHandlers.append(handler) }
            return true
        }
    }

    // MARK: AttemptHooks

    func attemptSpec(_ spec: RequestSpec) -> RequestSpec? {
        guard state.withLock({ $0.restartedResume }) else { return nil }
        var fresh = spec
        fresh.headers.remove(name: "Range")
        fresh.headers.remove(name: "If-Range")
        return fresh
    }

    func prepare(_ description: TransferDescription, spec: RequestSpec) throws {
        let rangeStart = spec.headers["Range"].flatMap(Self.rangeStart(of:))
        do {
            // Under the lock, so a request finishing meanwhile (a cancel making resume data)
            // sees either the file before this attempt touched it or after, with its size.
            let sink = try state.withLock { state -> ResponseFileSink in
                guard !state.finishing else { throw AFError.explicitlyCancelled }
                if let stale = state.errorBodyPath.take() { unlink(stale) }
                let sink: ResponseFileSink
                if let path = state.partialPath {
                    sink = try ResponseFileSink.append(to: path)
                    // A resumed file keeps the bytes it was resumed with; a file this download
                    // made (a redirect hop, a retry) starts over, whatever `Range` the caller
                    // asked for.
                    try sink.truncate(to: state.resumedFrom.map { $0 + 1 } ?? 0)
                    if state.resumedFrom != nil { sink.overlap = 1 }
                } else if let resumingFrom, let rangeStart {
                    state.partialPath = resumingFrom.partialFile
                    state.resumedFrom = rangeStart
                    sink = try ResponseFileSink.append(to: resumingFrom.partialFile)
                    // The range starts at the file's last byte (see `ResumeConvertible`): the
                    // answer's first byte is dropped, and the file is never shortened, so a
                    // resume cancelled before its answer leaves it as it was.
                    try sink.truncate(to: rangeStart + 1)
                    sink.overlap = 1
                } else {
                    let path = try Self.makeTemporaryPath()
                    if let stale = resumingFrom?.partialFile, stale != path {
                        // The old partial file could not be continued; the download starts over.
                        try? FileManager.default.removeItem(atPath: stale)
                    }
                    sink = try ResponseFileSink.create(at: path)
                    state.partialPath = path
                }
                sink.expectedRangeStart = state.resumedFrom
                if state.resumedFrom != nil, let path = state.partialPath { sink.errorBodyPath = path + ".answer" }
                // No answer to this attempt yet.
                state.size = sink.size
                state.lastHead = nil
                return sink
            }
            description.makeSink = { _ in sink }
        } catch let error as AFError {
            throw error
        } catch {
            throw AFError.sessionTaskFailed(error: URLError(.cannotCreateFile, userInfo: [NSUnderlyingErrorKey: error]))
        }
    }

    func transferEnded(_ transfer: Transfer, outcome: TransferOutcome) {
        guard let sink = transfer.fileSink else { return }
        sink.close()
        state.withLock {
            // The file now holds (the start of) the whole body: a resumed download that had to
            // start over is resumed no more, and a retry asks for the whole file again.
            if sink.restarted, $0.resumedFrom != nil {
                $0.resumedFrom = nil
                $0.restartedResume = true
            }
            $0.lastURL = transfer.url
            $0.lastHead = outcome.head
            $0.size = sink.size
            if sink.wroteErrorBody { $0.errorBodyPath = sink.errorBodyPath }
        }
    }

    func attemptSucceeded(_ request: Request) -> AFError? {
        // An error answer that ends the request is the download's file, as with URLSession;
        // the partial file it left whole goes.
        let (partial, errorBody) = state.withLock { ($0.partialPath, $0.errorBodyPath) }
        guard let path = errorBody ?? partial else { return nil }
        // Partial files are files: without the hint, Foundation asks the file system.
        let temporaryURL = URL(fileURLWithPath: path, isDirectory: false)
        guard let response = request.response else {
            return .responseValidationFailed(reason: .dataFileNil)
        }
        // Alamofire's events for the complete file, to monitors and then to a delegate
        // subclass, as URLSession's delegate hears it before the file is moved.
        let monitor = request.taskEventMonitor
        var task: URLSessionDownloadTask?
        if let session = request.delegate, session.delegateIsSubclass || monitor != nil {
            task = request.task as? URLSessionDownloadTask
            if let task {
                monitor?.urlSession(session.session, downloadTask: task, didFinishDownloadingTo: temporaryURL)
                if session.delegateIsSubclass {
                    session.delegate.urlSession(session.session, downloadTask: task, didFinishDownloadingTo: temporaryURL)
                }
            }
        }
        let (destinationURL, options) = (destination ?? DownloadRequest.defaultDestination)(temporaryURL, response)
        let fileManager = FileManager.default
        // The check for a cancel, the move and recording where the file went are one step
        // under the lock `requestFinishing` takes: a cancel that lands between them found the
        // partial path already moved away and the file not yet recorded, and the moved file
        // stayed behind.
        let failure = state.withLock { state -> AFError? in
            // Cancelled meanwhile (the destination closure may have done it): nothing is moved
            // into place, and finishing removes the partial file.
            guard !state.finishing, !request.isCancelled else { return nil }
            do {
                if options.contains(.createIntermediateDirectories) {
                    try fileManager.createDirectory(at: destinationURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                try Self.checkDestination(destinationURL)
                let destinationPath = destinationURL.path
                if options.contains(.removePreviousFile), unlink(destinationPath) != 0, errno != ENOENT {
                    throw DownloadedFileMove.failure(errno, destinationPath)
                }
                try DownloadedFileMove.move(path, to: destinationPath)
            } catch {
                return .downloadedFileMoveFailed(error: error, source: temporaryURL, destination: destinationURL)
            }
            state.partialPath = nil
            state.errorBodyPath = nil
            state.fileURL = destinationURL
            return nil
        }
        if let failure {
            if let monitor, let task, let download = request as? DownloadRequest {
                monitor.request(download, didFinishDownloadingUsing: task, with: .failure(failure))
            }
            return failure
        }
        guard fileURL == destinationURL else { return nil } // not moved: cancelled or finished meanwhile
        if let monitor, let task, let download = request as? DownloadRequest {
            monitor.request(download, didFinishDownloadingUsing: task, with: .success(destinationURL))
        }
        if errorBody != nil, let partial { try? fileManager.removeItem(atPath: partial) }
        if let download = request as? DownloadRequest {
            request.monitor?.request(download, didCreateDestinationURL: destinationURL)
        }
        return nil
    }

    func requestFinishing(_ request: Request) {
        let cancelled = request.isCancelled
        let (removal, handlers, resumeData) = state.withLock { state -> (String?, [@Sendable (Data?) -> Void], Data?) in
            state.finishing = true
            defer { state.resumeDataHandlers = [] }
            if let errorBody = state.errorBodyPath.take() { unlink(errorBody) }
            if cancelled, let moved = state.fileURL {
                // A cancel that came just after the file was moved into place still wins, as the
                // request reports it: a cancelled download leaves no file.
                state.fileURL = nil
                return (moved.path, state.resumeDataHandlers, nil)
            }
            guard let path = state.partialPath else { return (nil, state.resumeDataHandlers, nil) }
            if cancelled, state.producesResumeData, let made = Self.resumeData(path: path, state: state, resumingFrom: resumingFrom) {
                state.resumeData = made
                return (nil, state.resumeDataHandlers, made)
            }
            state.partialPath = nil
            return (path, state.resumeDataHandlers, nil)
        }
        // A failed or cancelled download leaves nothing behind, unless it can be resumed.
        if let removal { try? FileManager.default.removeItem(atPath: removal) }
        for handler in handlers { handler(resumeData) }
    }

    // MARK: Helpers

    /// Resume data is possible when the cut-short response was the file (200 or 206), had a
    /// validator to guard `If-Range` (a strong ETag or Last-Modified), and some bytes arrived; or when a resumed download is
    /// cancelled before any answer came, with the partial file it was continuing.
    private static func resumeData(path: String, state: State, resumingFrom: DownloadResumeData?) -> Data? {
        if state.resumedFrom != nil, let resumingFrom {
            // Still continuing the resumed file (before an answer, between redirect hops, or
            // after 206s that matched its validator): the file on disk is consistent with the
            // validators it started with.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            guard size > 0 else { return nil }
            return DownloadResumeData(url: resumingFrom.url, bytes: size, partialFile: path, etag: resumingFrom.etag,
                                      lastModified: resumingFrom.lastModified).encoded
        }
        guard let head = state.lastHead, head.statusCode == 200 || head.statusCode == 206, state.size > 0,
              let url = state.lastURL else { return nil }
        let made = DownloadResumeData(url: url, bytes: state.size, partialFile: path, etag: head.value(forHeader: "ETag"),
                                      lastModified: head.value(forHeader: "Last-Modified"))
        // No validator that can guard `If-Range`: the partial file could not be continued.
        guard made.ifRange != nil else { return nil }
        return made.encoded
    }

    /// A download ends as a file: a destination that names a directory (`.`, `..`, or an
    /// existing directory, not following a final link) is refused, so `.removePreviousFile`
    /// never removes one, whatever name a server suggested.
    static func checkDestination(_ url: URL) throws {
        let last = url.lastPathComponent
        guard url.isFileURL, !last.isEmpty, last != ".", last != "..", last != "/" else { throw POSIXError(.EISDIR) }
        var info = stat()
        if lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { throw POSIXError(.EISDIR) }
    }

    /// `N` of `bytes=N-`, the only form Salvo sends.
    static func rangeStart(of value: String) -> Int64? {
        guard value.hasPrefix("bytes="), value.hasSuffix("-") else { return nil }
        return Int64(value.dropFirst(6).dropLast())
    }

    /// A new path in the directory of partial downloads, `downloads` in the process's
    /// private temporary folder (`PrivateTemporaryDirectory`).
    static func makeTemporaryPath() throws -> String {
        try PrivateTemporaryDirectory.newFilePath(in: "downloads", suffix: ".partial")
    }
}
