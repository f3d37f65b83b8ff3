import Foundation
import Salvo

// A thin command line: parsing lives in the library (BulkToolArguments) where it is unit
// tested; this file only maps its outcomes to output and exit statuses.

func fail(_ message: String, status: ToolExitStatus, suggestHelp: Bool = false) -> Never {
    var text = "salvo: \(message)\n"
    if suggestHelp { text += "Try 'salvo --help'.\n" }
    FileHandle.standardError.write(Data(text.utf8))
    exit(status.rawValue)
}

let arguments: BulkToolArguments
do {
    arguments = try BulkToolArguments(
        parsing: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail(error.message, status: .usage, suggestHelp: true)
}

switch arguments.action {
case .help:
    print(ToolHelp.text)
    exit(ToolExitStatus.success.rawValue)
case .version:
    print("salvo \(SalvoInfo.version)")
    exit(ToolExitStatus.success.rawValue)
case .download:
    break
}

// A list in a file is checked whole before anything starts, so a typo on line 90,000 does
// not leave a half-finished run. Standard input can be read only once and is left to the
// downloader, which reads it as a stream.
if let path = arguments.inputFile, path != "-" {
    do {
        let reader = try BulkInputReader(contentsOfFile: path)
        while try reader.next() != nil {}
    } catch {
        let location = error.line > 0 ? "\(path):\(error.line)" : path
        fail("\(location): \(error.reason)", status: .usage)
    }
}

fail("downloading is not available in this build yet (the bulk downloader has not landed); nothing was downloaded",
     status: .someFailed)
