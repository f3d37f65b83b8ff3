import Foundation
import Salvo
import SalvoBulk
import XCTest

/// The reader hands out entries while the list is still arriving, and its memory does not
/// grow with the list.
final class BulkInputStreamingTests: XCTestCase {
    func testEntriesSpanningChunkBoundariesReadAsWhenReadWhole() throws {
        var list = "\u{FEFF}"
        for index in 0..<300 {
            list += "https://files.example/\(index).bin\thttps://mirror.example/\(index).bin\r\n"
            if index % 3 == 0 { list += "  out=file-\(index).bin\n  header=X-Index: \(index)\n# comment\n" }
        }
        let whole = try Self.drain(BulkInputReader(string: list))
        XCTAssertEqual(whole.count, 300)
        for chunkSize in [1, 2, 3, 7, 64, 4096] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-chunks-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: url) }
            try Data(list.utf8).write(to: url)
            XCTAssertEqual(try Self.drain(BulkInputReader(contentsOfFile: url.path, chunkSize: chunkSize)), whole, "chunk size \(chunkSize)")
        }
    }

    func testEntryIsHandedOutBeforeTheListEnds() throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        writer.write(Data("https://a.example/1\n  out=one\nhttps://a.example/2\n".utf8))
        let reader = BulkInputReader(fileHandle: pipe.fileHandleForReading)
        // The writer is still open: reading the whole list first would block here for ever.
        let first = try reader.next()
        XCTAssertEqual(first?.outputName, "one")
        XCTAssertEqual(first?.line, 1)
        writer.write(Data("  out=two\n".utf8))
        try writer.close()
        XCTAssertEqual(try reader.next()?.outputName, "two")
        XCTAssertNil(try reader.next())
        XCTAssertNil(try reader.next())
    }

    func testReadsFromARawFileDescriptorWithoutClosingIt() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("https://a.example/1\n  dir=d\n".utf8))
        try pipe.fileHandleForWriting.close()
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        do {
            let reader = BulkInputReader(fileDescriptor: descriptor, chunkSize: 5)
            XCTAssertEqual(try reader.next()?.directory, "d")
            XCTAssertNil(try reader.next())
        }
        XCTAssertNotEqual(fcntl(descriptor, F_GETFD), -1, "the caller's descriptor stays open")
    }

    func testReadFailureNamesTheLineItStoppedAt() throws {
        let reader = try BulkInputReader(contentsOfFile: FileManager.default.temporaryDirectory.path)
        XCTAssertThrowsError(try reader.next()) { error in
            XCTAssertEqual(error as? BulkInputError, BulkInputError(line: 1, reason: .readFailed(errno: EISDIR)))
            XCTAssertEqual((error as? BulkInputError)?.description, "line 1: cannot read: Is a directory")
        }
    }

    /// A million lines through a pipe, written while they are read: the reader's memory is
    /// one chunk, one line and one entry, so resident memory after the millionth entry is
    /// close to what it was after the thousandth (the list itself is 40 MB).
    func testMillionLineListIsReadInBoundedMemory() throws {
        let lineCount = 1_000_000
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let writerThread = Thread {
            var batch = ""
            for index in 0..<lineCount {
                batch += "https://files.example/data/\(index).bin\n"
                if index % 10_000 == 9_999 {
                    writer.write(Data(batch.utf8))
                    batch = ""
                }
            }
            try? writer.close()
        }
        writerThread.start()

        let reader = BulkInputReader(fileHandle: pipe.fileHandleForReading)
        var count = 0
        var residentAfterWarmUp = 0
        while let entry = try reader.next() {
            count += 1
            if count == 1_000 { residentAfterWarmUp = Self.residentBytes() }
            if count == 1 || count == lineCount {
                XCTAssertEqual(entry.uris[0].absoluteString, "https://files.example/data/\(count - 1).bin")
                XCTAssertEqual(entry.line, count)
            }
        }
        XCTAssertGreaterThan(residentAfterWarmUp, 0, "VmRSS should be readable")
        let growth = Self.residentBytes() - residentAfterWarmUp
        XCTAssertEqual(count, lineCount)
        XCTAssertLessThan(growth, 16 << 20, "resident memory grew by \(growth) bytes over the list")
    }

    private static func drain(_ reader: BulkInputReader) throws -> [BulkEntry] {
        var entries: [BulkEntry] = []
        while let entry = try reader.next() { entries.append(entry) }
        return entries
    }

    /// `VmRSS` from /proc/self/status, in bytes.
    private static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1024
    }
}
