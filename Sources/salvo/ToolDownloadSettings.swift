import Foundation
import Salvo
import SalvoBulk

/// How the parsed command line maps onto the downloader: its options, and the entries of
/// URLs given as arguments.
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
            split: arguments.split, maximumRatePerFile: arguments.maxDownloadLimit,
            maximumOverallRate: arguments.maxOverallDownloadLimit, flushesFiles: arguments.flushesFiles,
            // Only the manifest and the JSON events show a file's SHA-256.
            recordsSHA256: arguments.manifest != nil || arguments.json)
    }

    /// One entry per URL argument; `-o` and `--checksum` belong to the single URL (the parser
    /// allows them only then).
    static func entries(_ arguments: BulkToolArguments) -> [BulkEntry] {
        arguments.urls.map { BulkEntry(uris: [$0], outputName: arguments.outputName, checksum: arguments.checksum) }
    }
}
