// A client of the bulk downloader imports SalvoBulk, and Salvo for the headers it sends.
import Salvo
import SalvoBulk
import Synchronization

func downloadAll(_ urls: [URL], into directory: URL) async -> Int {
    let headers: HTTPHeaders = ["Accept": "*/*"]
    let downloader = BulkDownloader(options: .init(outputDirectory: directory, filesInFlight: 8, headers: headers))
    let remaining = Mutex(urls.map { BulkEntry(uris: [$0]) }[...])
    let summary = await downloader.run(next: { remaining.withLock { $0.popFirst() } })
    return summary.failed
}
