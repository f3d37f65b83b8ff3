/// The transfers suite: large downloads and uploads. Salvo has no `DownloadRequest` or
/// `UploadRequest` yet, so there is nothing to measure; the suite says so rather than
/// printing numbers it did not measure.
struct TransfersSuite {
    static let message = "transfers: not available until DownloadRequest lands "
        + "(Salvo has no DownloadRequest or UploadRequest yet; nothing measured)"

    func run(into report: inout BenchReport) -> Bool {
        Console.line("\n== transfers ==\n\(Self.message)")
        report.add(suite: .transfers, case: "all", client: "salvo", figures: [:], note: Self.message)
        return true
    }
}
