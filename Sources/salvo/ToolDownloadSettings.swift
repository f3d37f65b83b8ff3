import Foundation
import Salvo

/// How the parsed command line maps onto the downloader: its options, the entries of URLs
/// given as arguments, and a warning for each option this build accepts but cannot apply.
enum ToolDownloadSettings {
    /// The downloader's options; `--header`s go to every request, and an entry's own header
    /// of the same name wins.
    static func options(_ arguments: BulkToolArguments) -> BulkDownloader.Options {
        let directory = arguments.directory ?? FileManager.default.currentDirectoryPath
        return BulkDownloader.Options(
            outputDirectory: URL(fileURLWithPath: directory, isDirectory: true),
            filesInFlight: arguments.maxConcurrentDownloads, connectionsPerHost: arguments.maxConnectionsPerServer,
            continuePartial: arguments.continuePartial, maxTries: arguments.maxTries, retryWait: arguments.retryWait,
            timeout: arguments.timeout, connectTimeout: arguments.connectTimeout, headers: arguments.headers,
            split: arguments.split, maximumRatePerFile: arguments.maxDownloadLimit)
    }

    /// One entry per URL argument; `-o` and `--checksum` belong to the single URL (the parser
    /// allows them only then).
    static func entries(_ arguments: BulkToolArguments) -> [BulkEntry] {
        arguments.urls.map { BulkEntry(uris: [$0], outputName: arguments.outputName, checksum: arguments.checksum) }
    }

    /// Options that parse but that the downloader does not implement yet: a user who asked
    /// for a rate limit must not believe one is in force.
    static func warnings(_ arguments: BulkToolArguments) -> [String] {
        var warnings: [String] = []
        if !arguments.maxOverallDownloadLimit.isUnlimited {
            warnings.append("warning: --max-overall-download-limit is not applied yet in this build; the run is not rate-limited")
        }
        return warnings
    }
}
