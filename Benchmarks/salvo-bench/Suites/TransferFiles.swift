import Foundation

/// Writes the transfers suite's files into nginx's document root (`files/`), once per
/// size, from a buffer of pseudo-random bytes (so nothing along the way could compress them).
enum TransferFiles {
    /// Makes every file the cases need; returns the directory.
    static func make(for cases: [TransferCase], documentRoot: String) throws -> String {
        let directory = documentRoot + "/files"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let chunk = randomChunk()
        var unsummed: [String] = []
        for transfer in cases {
            for name in transfer.fileNames {
                if !FileManager.default.fileExists(atPath: directory + "/" + name) {
                    try write(size: transfer.size, to: directory + "/" + name, from: chunk)
                    try? FileManager.default.removeItem(atPath: directory + "/" + name + checksumSuffix)
                }
                if !FileManager.default.fileExists(atPath: directory + "/" + name + checksumSuffix) { unsummed.append(name) }
            }
        }
        try recordChecksums(of: unsummed, in: directory)
        return directory
    }

    /// Beside each file, `NAME.sha256` holds its sha-256 in hex: the checksums the verifying
    /// clients are given. (nginx serves them too; no case asks for them.)
    static let checksumSuffix = ".sha256"

    /// Runs `sha256sum` over `names` (a few at a time) and writes each one's digest beside it.
    private static func recordChecksums(of names: [String], in directory: String) throws {
        var start = 0
        while start < names.count {
            let batch = Array(names[start..<min(start + 200, names.count)])
            start += batch.count
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum", "--"] + batch
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchError("sha256sum failed on the transfers files") }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[1].trimmingCharacters(in: .whitespaces)
                try Data((parts[0] + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/" + name + checksumSuffix))
            }
        }
    }

    private static func write(size: Int, to path: String, from chunk: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var left = size
        while left > 0 {
            let piece = min(left, chunk.count)
            let written = chunk.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress!, piece) }
            guard written > 0 else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
            left -= written
        }
    }

    /// 1 MiB from a xorshift generator with a fixed seed.
    private static func randomChunk() -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                words[index] = state
            }
        }
        return bytes
    }
}
