import Foundation
import Salvo
import SalvoBulk
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One download run of the tool: entries and options from the command line, a display, the
/// manifest and Ctrl-C handling around `BulkDownloader.run`, and the exit status at the end.
struct ToolRun {
    let arguments: BulkToolArguments

    /// Downloads, reports and returns the status to exit with. Usage and input-list errors
    /// found before the start are printed here and return `.usage` with nothing downloaded.
    func run() async -> ToolExitStatus {
        let source: ToolEntrySource
        do {
            source = try makeSource()
        } catch {
            ToolOutput.message(error.message)
            return .usage
        }
        let options: BulkDownloader.Options
        do {
            options = try ToolDownloadSettings.options(arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            ToolOutput.message(error.message)
            return .usage
        }

        let manifest: ToolManifest?
        do {
            manifest = try arguments.manifest.map { path throws(ToolManifestError) in try ToolManifest(path: path) }
        } catch {
            ToolOutput.message(error.message)
            return .usage
        }

        let reporter = makeReporter(source: source)
        let downloader = BulkDownloader(options: options)
        let task = Task {
            await downloader.run(next: { try source.next() }) { event in
                reporter.handle(event)
                if case let .finished(result) = event { manifest?.record(result) }
            }
        }
        let interrupt = ToolInterrupt()
        let quiet = arguments.quiet
        let listener = interrupt.listen(first: {
            // Stopping the source covers a run the downloader has not registered yet;
            // cancelling the task covers the same; `cancel()` parks the files in flight.
            source.stop()
            downloader.cancel()
            task.cancel()
            if !quiet { ToolOutput.message("interrupted; finishing the summary, partial files are kept (Ctrl-C again to quit now)") }
        }, second: {
            manifest?.abandon()
            ToolOutput.error("\n")
            _exit(ToolExitStatus.interrupted.rawValue)
        })
        let summary = await task.value
        var status = Self.status(summary, interrupted: interrupt.wasInterrupted, inputError: source.inputError != nil)
        do {
            try manifest?.finish()
        } catch {
            ToolOutput.message(error.message)
            if status == .success { status = .someFailed }
        }
        reporter.finish(summary)
        listener.cancel()
        if let error = source.inputError { ToolOutput.message(Self.describe(error, in: source.listName)) }
        return status
    }

    private static func status(_ summary: BulkDownloader.Summary, interrupted: Bool, inputError: Bool) -> ToolExitStatus {
        if interrupted || summary.wasCancelled { return .interrupted }
        if inputError { return .usage }
        return summary.failed > 0 ? .someFailed : .success
    }

    /// `FILE:LINE: reason`, or `FILE: reason` for a list that could not be opened.
    static func describe(_ error: BulkInputError, in listName: String) -> String {
        let location = error.line > 0 ? "\(listName):\(error.line)" : listName
        return "\(location): \(error.reason)"
    }

    private func makeReporter(source: ToolEntrySource) -> any ToolReporter {
        if arguments.json { return ToolJSONReporter() }
        if !arguments.quiet, ToolOutput.standardOutputIsTerminal {
            return ToolTerminalReporter(inputExhausted: { source.isExhausted })
        }
        return ToolLineReporter(quiet: arguments.quiet)
    }

    /// The command line's URLs, or the list. A list in a regular file is checked whole
    /// before anything starts, so a typo on line 90,000 does not leave a half-finished run;
    /// standard input and pipes can be read only once and are checked as they stream.
    private func makeSource() throws(ToolSourceError) -> ToolEntrySource {
        guard let path = arguments.inputFile else {
            return ToolEntrySource(entries: ToolDownloadSettings.entries(arguments), shard: arguments.shard)
        }
        if path == "-" {
            return ToolEntrySource(reader: BulkInputReader(fileDescriptor: STDIN_FILENO), listName: "(standard input)",
                                   shard: arguments.shard)
        }
        do throws(BulkInputError) {
            if Self.isRegularFile(path) {
                let check = try BulkInputReader(contentsOfFile: path)
                while try check.next() != nil {}
            }
            return ToolEntrySource(reader: try BulkInputReader(contentsOfFile: path), listName: path, shard: arguments.shard)
        } catch {
            throw ToolSourceError(message: Self.describe(error, in: path))
        }
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

/// A list that cannot be used, in one line fit to follow `salvo: `.
struct ToolSourceError: Error {
    let message: String
}
