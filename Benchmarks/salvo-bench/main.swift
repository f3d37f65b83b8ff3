// salvo-bench: Salvo's benchmark suite, with its baselines in the same run.
//
//   swift run -c release salvo-bench [encoding|dispatch|tls-connect|transfers ...] [--quick] [--json FILE]
//
// See Usage.swift for every option. Hidden `--child CLIENT ...`, `--tls-connect-child
// CLIENT ...` and `--transfer-child CLIENT ...` modes run one dispatch, tls-connect or
// transfers client in a process of its own (DispatchChild.swift, TLSConnectChild.swift,
// TransferChild.swift); `--encoding-child CASE COUNT` runs one encoding
// case untimed, for an instruction counter (EncodingChild.swift).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == DispatchChild.flag {
    exit(DispatchChild.main(Array(arguments.dropFirst())))
}
if arguments.first == TLSConnectChild.flag {
    exit(TLSConnectChild.main(Array(arguments.dropFirst())))
}
if arguments.first == TransferChild.flag {
    exit(TransferChild.main(Array(arguments.dropFirst())))
}
if arguments.first == EncodingChild.flag {
    exit(EncodingChild.main(Array(arguments.dropFirst())))
}

let options: BenchOptions
do {
    options = try BenchOptions(arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("salvo-bench: \(error)\n\n\(Usage.text)".utf8))
    exit(2)
}
if options.showHelp {
    Console.line(Usage.text)
    exit(0)
}

Cleanup.installSignalHandlers()
let status = BenchRunner(options: options).run()
Cleanup.shared.runAll()
exit(status)
