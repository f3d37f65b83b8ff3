import Foundation
import Salvo
import SalvoBulk

// A thin command line: parsing lives in the library (BulkToolArguments) and downloading in
// BulkDownloader, where both are tested; this file maps their outcomes to output and exit
// statuses.

// Before anything else, so a Ctrl-C during start-up cannot kill the process before the
// run's own handler takes over.
ToolInterrupt.ignoreDefaultAction()

func fail(_ message: String, status: ToolExitStatus, suggestHelp: Bool = false) -> Never {
    var text = "salvo: \(message)\n"
    if suggestHelp { text += "Try 'salvo --help'.\n" }
    ToolOutput.error(text)
    exit(status.rawValue)
}

// The manual page, for regenerating Documentation/salvo.1; alone, as --help is not.
if CommandLine.arguments.dropFirst().elementsEqual([ToolManPage.argument]) {
    print(ToolManPage.text, terminator: "")
    exit(ToolExitStatus.success.rawValue)
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

let status = await ToolRun(arguments: arguments).run()
// _exit, not exit: the last reference to the downloader can go on another thread (the
// Ctrl-C listener's, as it is disposed), whose engine thread then still closes connections
// while exit() runs OpenSSL's and GnuTLS's library finalizers: a double free or a crash at
// the very end of a good run. Every file and the manifest are written by now, and the
// output goes through FileHandle, which keeps no buffer; fflush covers the C libraries'.
fflush(nil)
_exit(status.rawValue)
