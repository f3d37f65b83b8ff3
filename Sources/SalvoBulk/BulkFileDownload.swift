import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Salvo

/// One file of a bulk run, from its first attempt to its rename or its parking: the attempt
/// loop over the entry's URIs, the `.part` file and its sidecar.
///
/// Each attempt is a `BulkFetch` on the run's engine: its response head is judged and its body
/// written on the loop thread (`PacedBodySink`), and its end is judged there too and resumes
/// the file's task; progress events, sidecar updates and
/// flushes go to `queue`, a serial queue of this file's own: nothing that waits for the disk
/// runs on the loop. The attempt loop runs in the file's
/// task and reads the state between attempts. All go through `state` (a `Mutex`) and the
/// writer's own lock.
final class BulkFileDownload: Sendable {
    typealias Event = BulkDownloader.Event

    /// How an attempt ended.
    enum AttemptOutcome: Sendable {
        case completed
        case failed(BulkAttemptFailure)
        case cancelled
        /// The range probe found ranges: the file is cut into `State.ranges`, to fetch next.
        case splittable
        /// The range probe found no usable ranges: the file is fetched whole next.
        case unsplittable
        /// The response named the file, and an earlier run left that name's partial file:
        /// it is taken up (`State.pendingResume`) and the rest asked for next.
        case resumable
        /// With `continuePartial`, the final name already holds the whole file.
        case alreadyComplete
    }

    /// What the next request for a URI is.
    enum RequestKind {
        /// The whole file, or the rest of its kept prefix.
        case whole
        /// `Range: bytes=0-0`, to learn whether the file can be fetched in ranges.
        case probe
        /// The unfinished ranges of `State.ranges`, at once.
        case ranges
    }

    struct State {
        /// The claimed path of the file, relative to `directory`, once it is known.
        var name: String?
        /// The claim's descriptor of the partial file (`BulkPartClaim`), holding its lock
        /// until the file is renamed, parked or removed; -1 without one.
        var claim: Int32 = -1
        /// The name the claim asked for, which `name` is or numbers.
        var baseName: String?
        /// The response's validators and length, for `If-Range` and the sidecar.
        var etag: String?
        var lastModified: String?
        var expectedLength: Int64?
        /// The URI the partial file's bytes came from; a range is asked only of it.
        var bytesURI: URL?
        var bytesReceived: Int64 = 0
        var resumedFrom: Int64 = 0
        var lastProgress: ContinuousClock.Instant?
        var lastSidecar: ContinuousClock.Instant?
        /// Whether this run holds the partial file (claimed or taken up): only then is it this
        /// run's to keep or remove.
        var opened = false
        /// The file's ranges and their progress while it is fetched in ranges (`split`).
        var ranges: [BulkPartSidecar.Range]?
        /// URIs whose range probe showed that the file cannot be fetched in ranges.
        var unsplittable: Set<URL> = []
        /// Whether `rangesUnavailable` was reported.
        var reportedSingleConnection = false
        /// Whether a sidecar may sit beside the partial file: this run wrote one, or the
        /// partial file was an earlier run's. Otherwise there is none to remove.
        var sidecarMayExist = false
        /// An earlier run's partial file, found once the response named the file, to take up
        /// before the next attempt; `lookedForPart` makes that happen at most once.
        var pendingResume: (sidecar: BulkPartSidecar, partPath: String)?
        var lookedForPart = false
        /// With `continuePartial`, the final name held the whole file before the run.
        var foundComplete = false
        /// `name` was claimed before any response (`claimBeforeRequests`), and no response
        /// has confirmed it yet.
        var claimedBeforeResponse = false
        /// The claim made its partial file (`BulkPartClaim.Kind.new`) and nothing has opened
        /// it for writing yet: it is empty.
        var claimIsNew = false
    }

    /// How often a file's `progress` is reported, at most.
    static let progressInterval: Duration = .milliseconds(100)
    /// How often a file's sidecar is brought up to date while its body arrives (on `queue`:
    /// its `fdatasync` may wait for the disk).
    static let sidecarInterval: Duration = .seconds(2)

    let file: BulkDownloader.File
    /// The engine every request of the run goes to.
    let transport: BulkTransport
    let options: BulkDownloader.Options
    let claims: BulkNameClaims
    let directoryLock: BulkDirectoryLock
    /// The run's overall rate limit, when it has one.
    let budget: BulkRateBudget?
    let onEvent: @Sendable (Event) -> Void
    let queue: DispatchQueue
    let writer: BulkPartWriter
    let state = Mutex(State())
    /// The directory the file goes to: the run's, or the entry's `dir=` (inside the run's when
    /// relative), and its path.
    let directory: URL
    let directoryPath: String
    /// Claims this file's names in its directory, for its URIs (made once: a claim can run on
    /// the loop thread, as a response's head is judged).
    let claimer: BulkPartClaimer
    /// The login, cookies and proxy each request adds; `nil` when none applies.
    let requestPolicy: BulkRequestPolicy?
    /// Whether the finished file replaces one of the same name (`allowOverwrite`).
    let overwrites: Bool

    /// - Parameter runDirectoryPath: `options.outputDirectory.path`, which the run works out
    ///   once (Foundation's `path` decodes the URL anew each time).
    init(file: BulkDownloader.File, transport: BulkTransport, options: BulkDownloader.Options, runDirectoryPath: String,
         claims: BulkNameClaims, directoryLock: BulkDirectoryLock, budget: BulkRateBudget?,
         onEvent: @escaping @Sendable (Event) -> Void) {
        self.file = file
        self.transport = transport
        self.options = options
        self.claims = claims
        self.directoryLock = directoryLock
        self.budget = budget
        self.onEvent = onEvent
        queue = DispatchQueue(label: "org.salvo.bulk.file")
        if let subdirectory = file.entry.directory {
            directory = subdirectory.hasPrefix("/") ? URL(fileURLWithPath: subdirectory, isDirectory: true)
                : options.outputDirectory.appendingPathComponent(subdirectory, isDirectory: true)
            directoryPath = directory.path
        } else {
            directory = options.outputDirectory
            directoryPath = runDirectoryPath
        }
        claimer = BulkPartClaimer(directoryPath: directoryPath, owner: file.entry.uris.first?.absoluteString ?? "",
                                  owners: Set(file.entry.uris.map(\.absoluteString)), claims: claims, directoryLock: directoryLock,
                                  replacesFinished: file.entry.allowOverwrite ?? options.allowOverwrite)
        requestPolicy = BulkRequestPolicy.make(options: options, entry: file.entry)
        overwrites = file.entry.allowOverwrite ?? options.allowOverwrite
        writer = BulkPartWriter(checksum: file.entry.checksum?.algorithm, recordsSHA256: options.recordsSHA256,
                                flushes: options.flushesFiles)
    }

    // MARK: The attempt loop

    /// Downloads the file; returns how it ended. Never throws: a failure is a result.
    func run() async -> BulkDownloader.FileResult {
        let result = await attempts()
        // After the rename, the parking or the removal: until then the name is this run's.
        let (claim, unconfirmed) = state.withLock { state in
            defer { state.claim = -1 }
            return (state.claim, state.claimedBeforeResponse ? state.name : nil)
        }
        if claim >= 0 { close(claim) }
        // Claimed before any response and none came: the name goes back to the run, as if it
        // had never been claimed (its empty partial file is gone).
        if let unconfirmed, result.outcome != .succeeded, result.filePath == nil { claims.release(unconfirmed) }
        return result
    }

    private func attempts() async -> BulkDownloader.FileResult {
        let started = ContinuousClock.now
        onEvent(.started(file))
        // Before `prepare`, which makes the directory: a dry run writes nothing at all.
        if file.entry.dryRun ?? options.dryRun { return await check(since: started) }
        var attempts = 0
        var lastURI: URL?
        let directory: URL
        do {
            directory = try prepare()
        } catch {
            return result(.failed(reason: Self.describe(error)), url: nil, path: nil, sha256: nil, attempts: 0, since: started)
        }
        if state.withLock({ $0.foundComplete }) {
            return result(.alreadyComplete, url: nil, path: finalPath(), sha256: nil, attempts: 0, since: started)
        }
        claimBeforeRequests()
        var lastFailure = "no URI to try"
        uris: for uri in file.entry.uris {
            var tries = 0
            while true {
                if Task.isCancelled { return park(directory: directory, url: lastURI, attempts: attempts, since: started) }
                tries += 1
                attempts += 1
                lastURI = uri
                let outcome: AttemptOutcome
                switch requestKind(for: uri) {
                case .whole: outcome = await attempt(uri, directory: directory, probe: false)
                case .probe: outcome = await attempt(uri, directory: directory, probe: true)
                case .ranges: outcome = await rangesAttempt(uri)
                }
                switch outcome {
                case .splittable, .unsplittable:
                    // The probe only chose how to fetch the file: the download is the next request.
                    if case .splittable = outcome, let failure = recordRanges() {
                        lastFailure = failure.reason
                        continue uris
                    }
                    tries -= 1
                    attempts -= 1
                    continue
                case .resumable:
                    // Found the partial file only once the response named it: its rest is the next request.
                    tries -= 1
                    attempts -= 1
                    takeUpPendingResume()
                    continue
                case .alreadyComplete:
                    return result(.alreadyComplete, url: uri, path: finalPath(), sha256: nil, attempts: attempts,
                                  since: started)
                case .cancelled:
                    return park(directory: directory, url: uri, attempts: attempts, since: started)
                case .completed:
                    // Without a flush the rename is quick: no hop for it.
                    let finalized = options.flushesFiles ? await finalizeOffThePool(directory: directory) : finalize(directory: directory)
                    switch finalized {
                    case let .success((path, sha256)):
                        return result(.succeeded, url: uri, path: path, sha256: sha256, attempts: attempts, since: started)
                    case let .failure(failure):
                        lastFailure = failure.reason
                        if failure.isRetryable, options.maxTries == 0 || tries < options.maxTries { continue }
                        continue uris
                    }
                case let .failed(failure):
                    lastFailure = failure.reason
                    if failure.restartsFromZero { forgetBytes() }
                    switch await retryStep(after: failure, tries: tries, attempts: attempts) {
                    case .again: continue
                    case .nextURI: continue uris
                    case .cancelled: return park(directory: directory, url: uri, attempts: attempts, since: started)
                    }
                }
            }
        }
        let reason = attempts > 1 ? "\(lastFailure) (after \(attempts) attempts)" : lastFailure
        let kept = leaveOrRemovePart(directory: directory, url: lastURI)
        return result(.failed(reason: reason), url: lastURI, path: kept, sha256: nil, attempts: attempts, since: started)
    }

    /// Checks the entry's own name, makes the directory, and with `continuePartial` looks for
    /// this entry's earlier work under the name known before any request (the entry's, else
    /// the URL's): its finished file, or a partial file to take up. Otherwise the name is
    /// claimed when the first response's head arrives, which may name the file.
    private func prepare() throws -> URL {
        let entry = file.entry
        if let subdirectory = entry.directory { try BulkOutputName.validateDirectory(subdirectory) }
        if let outputName = entry.outputName { try BulkOutputName.validate(outputName) }
        guard !entry.uris.isEmpty else { throw BulkFileError("the entry has no URI") }
        try directoryLock.makeDirectory(atPath: directoryPath)

        if let outputName = entry.outputName { try createParentDirectories(of: outputName) }
        guard options.continuePartial, let base = entry.outputName ?? BulkURLName.name(of: entry.uris[0]) else { return directory }
        // Before any request only a checksum can vouch for a file nothing is recorded on.
        if let own = claimer.findOwn(base, isOwnUnrecorded: { [self] in (try? existingFileMatchesChecksum($0)) ?? false }) {
            adopt(own)
            switch own.kind {
            case .complete:
                state.withLock { $0.foundComplete = true }
            case .abandoned:
                if let sidecar = Self.resumableSidecar(at: partPath(for: own.name), uris: entry.uris) {
                    try takeUp(sidecar, partPath: partPath(for: own.name))
                }
            case .new:
                break
            }
        }
        return directory
    }

    /// The sidecar of `partPath` when it can be continued: ours, naming one of `uris`, with a
    /// validator for `If-Range`, beside a regular partial file.
    static func resumableSidecar(at partPath: String, uris: [URL]) -> BulkPartSidecar? {
        guard let sidecar = BulkPartSidecar.read(at: BulkPartSidecar.path(forPart: partPath)),
              sidecar.ifRange != nil, uris.contains(where: { $0.absoluteString == sidecar.url }) else { return nil }
        var info = stat()
        guard lstat(partPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return sidecar
    }

    /// One request for the file: the rest of it when bytes of the same URI are kept and a
    /// validator guards them, else all of it.
    ///
    /// A probe (`probe`) asks for the first byte only: a usable 206 cuts the file into ranges
    /// (`splittable`), any other 206 or a 416 leaves it whole (`unsplittable`), and a 200 is
    /// the whole file, taken as this attempt's body.
    private func attempt(_ uri: URL, directory: URL, probe: Bool) async -> AttemptOutcome {
        var headers = requestHeaders()
        let kept = writer.bytes
        let (validator, bytesURI) = state.withLock { ($0.etag ?? $0.lastModified, $0.bytesURI) }
        let resumes = kept > 0 && validator != nil && bytesURI == uri
        let rangeStart: Int64? = resumes ? kept : nil
        if resumes, let validator {
            headers.update(name: "Range", value: "bytes=\(kept)-")
            headers.update(name: "If-Range", value: validator)
        } else if probe {
            headers.update(name: "Range", value: "bytes=0-0")
        }
        let control = BulkAttemptControl()
        // The head's verdict, reached on the loop thread as the head ends (`PacedBodySink`):
        // `true` takes the body.
        let probing = probe && !resumes
        let judge: @Sendable (ResponseHead) -> Bool = { [self] response in
            if !resumes, let early = existingWork(response, uri: uri, directory: directory) {
                control.settle(early)
                return false
            }
            if probing {
                if response.statusCode == 206 {
                    if let failure = probed(response, uri: uri, directory: directory, control: control) {
                        control.fail(failure)
                        return false
                    }
                    return true
                }
                reportSingleConnection(uri, reason: "the server does not support ranges (it answered with the whole file)")
            }
            if let failure = head(response, uri: uri, rangeStart: rangeStart, validator: validator, directory: directory) {
                control.fail(failure)
                return false
            }
            return true
        }
        let ending = await fetch(uri, headers: headers, control: control, judge: judge) { [self] bytes in
            // A probe's byte is not kept: the ranges fetch it again.
            guard !control.hasFailed, control.probe == nil else { return true }
            do {
                try writer.append(bytes)
            } catch {
                control.fail(BulkAttemptFailure(reason: Self.describe(error), isRetryable: false))
                return false
            }
            received(bytes.count)
            return true
        }
        return outcome(of: ending, control: control, uri: uri, probe: probing)
    }

    /// Continues an earlier run's partial file from what its sidecar says is done.
    func takeUp(_ sidecar: BulkPartSidecar, partPath: String) throws {
        if options.split > 1, let ranges = sidecar.ranges, let length = sidecar.expectedLength,
           BulkPartSidecar.rangesAreValid(ranges, length: length) {
            try resumeRanges(sidecar, ranges: ranges, length: length, partPath: partPath)
            return
        }
        try writer.open(partPath, claim: claimForWriting().descriptor, keeping: sidecar.bytesDone)
        let kept = writer.bytes
        state.withLock {
            $0.opened = true
            $0.sidecarMayExist = true
            $0.etag = sidecar.etag
            $0.lastModified = sidecar.lastModified
            $0.expectedLength = sidecar.expectedLength
            $0.bytesURI = URL(string: sidecar.url)
            $0.resumedFrom = kept
        }
    }

    /// Handles a response's head (a 2xx: the others fail validation first); returns why the
    /// attempt cannot go on, or `nil` to take the body.
    private func head(_ response: ResponseHead, uri: URL, rangeStart: Int64?, validator: String?,
                      directory: URL) -> BulkAttemptFailure? {
        do {
            let name = try settleName(response: response, uri: uri, directory: directory)
            let partPath = path(of: name) + ".part"
            if !writer.isOpen {
                let (claim, isNew) = claimForWriting()
                try writer.open(partPath, claim: claim, keeping: rangeStart ?? 0, isNew: isNew)
            }
            let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
            var total: Int64?
            if response.statusCode == 206 {
                // A range must continue the file exactly, under the validator it was asked with.
                guard let rangeStart, let range = Self.contentRange(response.value(forHTTPHeaderField: "Content-Range")),
                      range.start == rangeStart, validator == nil || etag == nil || etag == validator else {
                    return BulkAttemptFailure(reason: "the server answered with a range that does not continue the file",
                                              isRetryable: true, restartsFromZero: true)
                }
                total = range.total
            } else {
                // The whole body: what was kept goes, an earlier run's bytes too.
                if writer.bytes > 0 { try writer.restart() }
                state.withLock { $0.resumedFrom = 0 }
                total = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            }
            let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
            state.withLock {
                $0.etag = etag
                $0.lastModified = lastModified
                $0.expectedLength = total
                $0.bytesURI = uri
                // The first sidecar is written once the file has taken `sidecarInterval`, or
                // when it is parked: most files finish long before, and writing one per file
                // (a create, an fsync, a rename and an unlink) cost more CPU than the file's
                // bytes (measured: ~0.5 ms of a 100 KiB file's ~1.5 ms). A process killed
                // before then leaves a `.part` without one, which `--continue` starts over.
                $0.lastSidecar = .now
                // Likewise the first progress report: a file that ends within
                // `progressInterval` is reported by its `finished` event alone.
                if $0.lastProgress == nil { $0.lastProgress = .now }
            }
            return nil
        } catch {
            return BulkAttemptFailure(reason: Self.describe(error), isRetryable: false)
        }
    }

    /// An error as a sentence.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as BulkValueError: return error.message
        case let error as BulkFileError: return error.description
        default: return error.localizedDescription
        }
    }

    /// The file's name: the one already settled, else the entry's, else the response's
    /// `Content-Disposition`, else the URL's last path component, else `index.html`; claimed
    /// on the file system (or a numbered variant of it) with its partial file.
    func settleName(response: ResponseHead, uri: URL, directory: URL) throws -> String {
        let (settled, early, earlyBase) = state.withLock { state in
            defer { state.claimedBeforeResponse = false }
            return (state.name, state.claimedBeforeResponse, state.baseName)
        }
        if let settled {
            // Only a name claimed before any response can change, and only if this response
            // could name the file otherwise: the claim was made from the entry's own name,
            // or from the first URI's with no `Content-Disposition` to say otherwise here.
            guard early else { return settled }
            if file.entry.outputName != nil { return settled }
            if uri == file.entry.uris.first, response.value(forHTTPHeaderField: "Content-Disposition") == nil { return settled }
            guard suggestedName(response: response, uri: uri) != earlyBase else { return settled }
            // The response names the file otherwise (its `Content-Disposition`, or a mirror's
            // URL): the name claimed before it is given up, empty, for the one it gives.
            let descriptor = state.withLock { state -> Int32 in
                defer { state.claim = -1 }
                return state.claim
            }
            removePart(partPath(for: settled))
            if descriptor >= 0 { close(descriptor) }
            claims.release(settled)
            state.withLock {
                $0.name = nil
                $0.baseName = nil
                $0.opened = false
                $0.sidecarMayExist = false
            }
        }
        let claim = try claimer.claim(suggestedName(response: response, uri: uri))
        adopt(claim)
        return claim.name
    }

    /// Claims the file's name before its first request, off the loop thread, when a response
    /// is unlikely to change it: the entry's own name, or the first URI's (a server rarely
    /// names a file with `Content-Disposition`; when it does, `settleName` claims that name
    /// instead). Claiming waits for the disk (a new inode, its lock, its owner, a link), which
    /// on the loop thread, as each head arrived, held every other transfer. Not with
    /// `continuePartial`, which looks for earlier work under the name the response gives, nor
    /// with `split`, whose probe settles the name; a name that cannot be claimed now, or whose
    /// partial file an earlier run left, is claimed as the head arrives, as then. A name no
    /// response confirms goes back to the run (`BulkNameClaims.release`).
    private func claimBeforeRequests() {
        guard !options.continuePartial, options.split <= 1, let uri = file.entry.uris.first,
              state.withLock({ $0.name == nil }) else { return }
        let base = file.entry.outputName ?? BulkURLName.name(of: uri) ?? "index.html"
        guard let claim = try? claimer.claim(base) else { return }
        guard claim.kind == .new else {
            // An earlier run's partial file of the same URL: it is taken up only once a response
            // confirms it, as before; until then it stays as it is, for `--continue` to find.
            if claim.descriptor >= 0 { close(claim.descriptor) }
            claims.release(claim.name)
            return
        }
        adopt(claim)
        state.withLock { $0.claimedBeforeResponse = true }
    }

    /// The name the file would have before any claim: the entry's, else the response's
    /// `Content-Disposition`, else the URL's last path component, else `index.html`.
    func suggestedName(response: ResponseHead, uri: URL) -> String {
        if let outputName = file.entry.outputName { return outputName }
        let suggested = response.value(forHTTPHeaderField: "Content-Disposition").flatMap(NetworkFileName.fromContentDisposition)
            ?? BulkURLName.name(of: uri) ?? "index.html"
        return BulkNameClaims.fitted(suggested)
    }

    /// The claim's descriptor, for the writer to open, and whether its file is still the empty
    /// one the claim made; from now on it is not.
    func claimForWriting() -> (descriptor: Int32, isNew: Bool) {
        state.withLock { state in
            defer { state.claimIsNew = false }
            return (state.claim, state.claimIsNew)
        }
    }

    /// Makes `claim` this file's: its name is settled, and its partial file, when it has one,
    /// is this run's to write, keep or remove.
    func adopt(_ claim: BulkPartClaim) {
        state.withLock {
            $0.name = claim.name
            $0.baseName = claim.base
            $0.claim = claim.descriptor
            $0.claimIsNew = claim.kind == .new
            if claim.kind != .complete { $0.opened = true }
            if claim.sidecarMayExist { $0.sidecarMayExist = true }
        }
    }

    /// Counts bytes written (loop thread), and now and then reports progress and brings the
    /// sidecar up to date, both on the file's queue: the loop thread only counts.
    func received(_ count: Int) {
        let now = ContinuousClock.now
        let (report, refresh, total) = state.withLock { state -> (Bool, Bool, Int64?) in
            state.bytesReceived += Int64(count)
            let report = state.lastProgress.map { now - $0 >= Self.progressInterval } ?? true
            if report { state.lastProgress = now }
            let refresh = state.lastSidecar.map { now - $0 >= Self.sidecarInterval } ?? true
            if refresh { state.lastSidecar = now }
            return (report, refresh, state.expectedLength)
        }
        guard report || refresh else { return }
        queue.async { [self] in
            if report { onEvent(.progress(file, bytes: writer.bytes, total: total)) }
            if refresh, let partPath = partPath() {
                // What is counted before the flush is on the disk after it. Without
                // `flushesFiles` no flush: the sidecar then holds against a killed process
                // (the page cache keeps what was written), as the files do, not a power cut.
                let sidecar = sidecarSnapshot()
                if options.flushesFiles { writer.flush() }
                try? write(sidecar, partPath: partPath)
            }
        }
    }

    /// What an attempt's ending means.
    private func outcome(of ending: BulkFetch.Ending, control: BulkAttemptControl, uri: URL, probe: Bool) -> AttemptOutcome {
        if let settled = control.settled { return settled }
        if let failure = control.failure { return .failed(failure) }
        if let probed = control.probe { return probed ? .splittable : .unsplittable }
        let unanswered = outcome(withoutBody: ending) { [self] () -> AttemptOutcome? in
            if probe {
                // No first byte to give: an empty file, or a server that refuses this range.
                reportSingleConnection(uri, reason: "the server refused a range of the file (HTTP 416)")
                return .unsplittable
            }
            guard writer.bytes > 0 else { return nil }
            return .failed(BulkAttemptFailure(reason: "HTTP 416: the kept bytes are not a prefix the server has",
                                              isRetryable: true, restartsFromZero: true))
        }
        if let unanswered { return unanswered }
        let expected = state.withLock { $0.expectedLength }
        let bytes = writer.bytes
        if let expected, bytes != expected {
            return .failed(BulkAttemptFailure(reason: "the body ended after \(bytes) of \(expected) bytes", isRetryable: true))
        }
        if !writer.isOpen {
            // A 2xx with no head handler call cannot happen; a file is still owed.
            return .failed(BulkAttemptFailure(reason: "no response body arrived", isRetryable: true))
        }
        return .completed
    }
}
