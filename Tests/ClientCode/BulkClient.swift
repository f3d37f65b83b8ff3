// A client of the bulk downloader imports SalvoBulk, and Salvo for the session it exposes.
import Salvo
import SalvoBulk
import Synchronization

func downloadAll(_ urls: [URL], into directory: URL) async -> Int {
    let downloader = BulkDownloader(options: .init(outputDirectory: directory, filesInFlight: 8))
    let session: Session = downloader.session
    _ = session
    let remaining = Mutex(urls.map { BulkEntry(uris: [$0]) }[...])
    let summary = await downloader.run(next: { remaining.withLock { $0.popFirst() } })
    return summary.failed
}
