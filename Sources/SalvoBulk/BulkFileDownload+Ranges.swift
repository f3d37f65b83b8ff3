import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Salvo

/// A file fetched in ranges (`BulkDownloader.Options.split`): the probe that finds out
/// whether it can be, and the ranges fetched at once, each written at its own offset.
extension BulkFileDownload {
    /// The options' headers with the entry's own over them.
    func requestHeaders() -> HTTPHeaders {
        var headers = options.headers
        for header in file.entry.headers { headers.update(header) }
        return headers
    }

    /// What to ask `uri` for next: the unfinished ranges when the file is being fetched in
    /// ranges from it; a probe when ranges are wanted and nothing is kept; else the whole file
    /// (or the rest of a kept prefix).
    func requestKind(for uri: URL) -> RequestKind {
        guard options.split > 1 else { return .whole }
        let (hasRanges, sameURI, unsplittable) = state.withLock {
            ($0.ranges != nil, $0.bytesURI == uri, $0.unsplittable.contains(uri))
        }
        if hasRanges {
            if sameURI { return .ranges }
            // Ranges of another URI (a mirror) are not known to be this one's bytes.
            forgetBytes()
        }
        if unsplittable || writer.bytes > 0 { return .whole }
        return .probe
    }

    /// Reports once per file that it is fetched over one connection, and fetches it whole
    /// from `uri` from now on.
    func reportSingleConnection(_ uri: URL, reason: String) {
        let first = state.withLock { state -> Bool in
            state.unsplittable.insert(uri)
            defer { state.reportedSingleConnection = true }
            return !state.reportedSingleConnection
        }
        if first { onEvent(.rangesUnavailable(file, reason: reason)) }
    }

    /// Handles a probe's 206: with the file's length and a validator, cuts the file into
    /// ranges and opens the partial file for them; otherwise leaves the file to be fetched
    /// whole. Returns why the attempt cannot go on, or `nil`.
    func probed(_ response: ResponseHead, uri: URL, directory: URL, control: BulkAttemptControl) -> BulkAttemptFailure? {
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
        guard let range = Self.contentRange(response.value(forHTTPHeaderField: "Content-Range")), range.start == 0,
              let length = range.total, length > 0 else {
            reportSingleConnection(uri, reason: "the server's range answer gives no length of the file")
            control.probe = false
            return nil
        }
        guard etag != nil || lastModified != nil else {
            reportSingleConnection(uri, reason: "the server gives no validator (strong ETag or Last-Modified) to guard ranges")
            control.probe = false
            return nil
        }
        do {
            let name = try settleName(response: response, uri: uri, directory: directory)
            let partPath = path(of: name) + ".part"
            let count = Int(min(Int64(min(options.split, 64)), max(1, length / BulkDownloader.Options.minimumRangeLength)))
            let ranges = try writer.openForRanges(partPath, claim: claimForWriting().descriptor, length: length,
                                                  ranges: BulkPartSidecar.ranges(length: length, count: count))
            state.withLock {
                $0.opened = true
                $0.etag = etag
                $0.lastModified = lastModified
                $0.expectedLength = length
                $0.bytesURI = uri
                $0.ranges = ranges
                $0.resumedFrom = 0
                $0.lastSidecar = .now
            }
            control.probe = true
            return nil
        } catch {
            return BulkAttemptFailure(reason: Self.describe(error), isRetryable: false)
        }
    }

    /// Writes the sidecar of a file the probe just cut into ranges, before they are fetched,
    /// so that a run stopped from then on can continue each range (here, in the file's task:
    /// the probe's verdict is reached on the loop thread, which must not wait for the disk).
    /// Returns why it could not, or `nil`.
    func recordRanges() -> BulkAttemptFailure? {
        guard let partPath = partPath() else { return nil }
        do {
            try writeSidecar(partPath: partPath)
            return nil
        } catch {
            return BulkAttemptFailure(reason: Self.describe(error), isRetryable: false)
        }
    }

    /// Takes up an earlier run's partial file that was being fetched in ranges.
    func resumeRanges(_ sidecar: BulkPartSidecar, ranges: [BulkPartSidecar.Range], length: Int64,
                      partPath: String) throws {
        let kept = try writer.openForRanges(partPath, claim: claimForWriting().descriptor, length: length, ranges: ranges)
        let bytes = writer.bytes
        state.withLock {
            $0.opened = true
            $0.etag = sidecar.etag
            $0.lastModified = sidecar.lastModified
            $0.expectedLength = length
            $0.bytesURI = URL(string: sidecar.url)
            $0.ranges = kept
            $0.resumedFrom = bytes
            $0.sidecarMayExist = true
        }
    }

    /// Fetches every unfinished range of the file from `uri` at once. The first range that
    /// fails stops the others; what each wrote is kept for the next attempt.
    func rangesAttempt(_ uri: URL) async -> AttemptOutcome {
        let headers = requestHeaders()
        let (ranges, validator, length) = state.withLock { ($0.ranges ?? [], $0.etag ?? $0.lastModified, $0.expectedLength) }
        guard let validator, let length else {
            return .failed(BulkAttemptFailure(reason: "the ranges have no validator to guard them", isRetryable: true,
                                              restartsFromZero: true))
        }
        guard writer.isOpen else {
            return .failed(BulkAttemptFailure(reason: "the partial file is no longer open", isRetryable: true,
                                              restartsFromZero: true))
        }
        let pending = ranges.indices.filter { !ranges[$0].isComplete }
        return await withTaskGroup(of: AttemptOutcome.self) { group in
            for index in pending {
                group.addTask {
                    await self.fetchRange(index, of: ranges[index], uri: uri, headers: headers, validator: validator,
                                          length: length)
                }
            }
            var failure: BulkAttemptFailure?
            var cancelled = false
            for await outcome in group {
                switch outcome {
                case let .failed(reason):
                    if failure == nil {
                        failure = reason
                        group.cancelAll()
                    }
                case .cancelled:
                    cancelled = true
                case .completed, .splittable, .unsplittable, .resumable, .alreadyComplete:
                    break
                }
            }
            if let failure { return .failed(failure) }
            if cancelled { return .cancelled }
            return .completed
        }
    }

    /// One request for the rest of range `index`: `Range: bytes=FROM-LAST` with `If-Range`.
    private func fetchRange(_ index: Int, of range: BulkPartSidecar.Range, uri: URL, headers: HTTPHeaders,
                            validator: String, length: Int64) async -> AttemptOutcome {
        var headers = headers
        let from = range.start + range.done
        headers.update(name: "Range", value: "bytes=\(from)-\(range.end - 1)")
        headers.update(name: "If-Range", value: validator)
        let control = BulkAttemptControl()
        let judge: @Sendable (ResponseHead) -> Bool = { [self] response in
            guard let failure = rangeHead(response, from: from, length: length, validator: validator) else { return true }
            control.fail(failure)
            return false
        }
        let ending = await fetch(uri, headers: headers, control: control, judge: judge) { [self] bytes in
            guard !control.hasFailed else { return true }
            if let failure = write(bytes, toRange: index) {
                control.fail(failure)
                return false
            }
            received(bytes.count)
            return true
        }
        return rangeOutcome(of: ending, index: index, control: control)
    }

    /// Checks a range's answer: a 206 starting at `from` of the same file. Returns why the
    /// attempt cannot go on, or `nil`.
    private func rangeHead(_ response: ResponseHead, from: Int64, length: Int64, validator: String) -> BulkAttemptFailure? {
        guard response.statusCode == 206 else {
            return BulkAttemptFailure(reason: "the server answered a range with the whole file (the file changed, or ranges are no longer honoured)",
                                      isRetryable: true, restartsFromZero: true)
        }
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let range = Self.contentRange(response.value(forHTTPHeaderField: "Content-Range")), range.start == from,
              range.total == nil || range.total == length,
              etag == nil || !validator.hasPrefix("\"") || etag == validator else {
            return BulkAttemptFailure(reason: "the server answered with a range that is not the one asked for, or of another file",
                                      isRetryable: true, restartsFromZero: true)
        }
        return nil
    }

    /// Writes a range's bytes at their place; returns why it cannot, or `nil`.
    private func write(_ data: UnsafeRawBufferPointer, toRange index: Int) -> BulkAttemptFailure? {
        guard let range = state.withLock({ $0.ranges?[index] }) else {
            return BulkAttemptFailure(reason: "the file's ranges are gone", isRetryable: true, restartsFromZero: true)
        }
        guard range.done + Int64(data.count) <= range.length else {
            return BulkAttemptFailure(reason: "the server sent more than the range \(range.start)-\(range.end - 1) asked for",
                                      isRetryable: true)
        }
        do {
            try writer.place(data, at: range.start + range.done)
        } catch {
            return BulkAttemptFailure(reason: error.description, isRetryable: false)
        }
        // One range's bytes arrive on the loop thread, in order: its `done` moves only here.
        state.withLock { $0.ranges?[index].done += Int64(data.count) }
        return nil
    }

    /// What a range request's ending means.
    private func rangeOutcome(of ending: BulkFetch.Ending, index: Int, control: BulkAttemptControl) -> AttemptOutcome {
        if let failure = control.failure { return .failed(failure) }
        let unanswered = outcome(withoutBody: ending) {
            .failed(BulkAttemptFailure(reason: "HTTP 416: the server no longer has the range asked for",
                                       isRetryable: true, restartsFromZero: true))
        }
        if let unanswered { return unanswered }
        guard let range = state.withLock({ $0.ranges?[index] }) else {
            return .failed(BulkAttemptFailure(reason: "the file's ranges are gone", isRetryable: true, restartsFromZero: true))
        }
        guard range.isComplete else {
            return .failed(BulkAttemptFailure(
                reason: "the range \(range.start)-\(range.end - 1) ended after \(range.done) of \(range.length) bytes",
                isRetryable: true))
        }
        return .completed
    }
}
