import Foundation

/// `salvo-bench --encoding-child CASE COUNT`: runs one encoding case's body COUNT times and
/// nothing else, untimed, for an instruction counter (Benchmarks/callgrind-encoding.sh).
enum EncodingChild {
    static let flag = "--encoding-child"

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let count = Int(arguments[1]), count > 0 else {
            FileHandle.standardError.write(Data("usage: salvo-bench \(flag) CASE COUNT\n".utf8))
            return 2
        }
        do {
            guard let item = try EncodingCases.all().first(where: { $0.name == arguments[0] }) else {
                FileHandle.standardError.write(Data("salvo-bench: no encoding case named \"\(arguments[0])\"\n".utf8))
                return 2
            }
            var sink = 0
            for _ in 0..<count { sink &+= try item.body() }
            // Printed so that the loop's result is used.
            print(sink)
            return 0
        } catch {
            FileHandle.standardError.write(Data("salvo-bench: \(error)\n".utf8))
            return 1
        }
    }
}
