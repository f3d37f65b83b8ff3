// `import Salvo` is Alamofire's API alone: the bulk downloader lives in SalvoBulk, so this
// file must fail to compile, naming BulkDownloader.
import Salvo

let outputDirectory = URL(fileURLWithPath: "/tmp/downloads")
let downloader = BulkDownloader(options: .init(outputDirectory: outputDirectory))
