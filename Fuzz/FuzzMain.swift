// libFuzzer entry point for Salvo's fuzz targets (see Fuzz/README.md).
//
// Compiled together with Sources/Salvo/**/*.swift into one module (`-module-name Salvo`),
// so the harnesses reach Salvo's internal types. One binary holds every target; the
// environment variable SALVO_FUZZ_TARGET picks the one a run exercises.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum FuzzTarget: String, CaseIterable {
    case headers, query, form, resume, names

    /// The target named by SALVO_FUZZ_TARGET; the process stops when it names none.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SALVO_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("SALVO_FUZZ_TARGET must be one of: \(names) (got \"\(name)\")\n".utf8))
            exit(2)
        }
        return target
    }()

    func run(_ bytes: [UInt8]) {
        switch self {
        case .headers: fuzzHeaders(bytes)
        case .query: fuzzQuery(bytes)
        case .form: fuzzForm(bytes)
        case .resume: fuzzResume(bytes)
        case .names: fuzzNames(bytes)
        }
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func salvoFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                                _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    // Resolve the target before the first input, so a bad name fails at once.
    _ = FuzzTarget.selected
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func salvoFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

/// Stops the process, with the message, when a property fails: `fatalError` prints its
/// message in -O builds too, where `precondition` would trap silently.
@inline(__always)
func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

/// A deterministic reader of fuzzer bytes: every read succeeds, giving zeros once the
/// input is used up, so any input decodes to some value.
struct FuzzReader {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }
    var remaining: Int { max(0, bytes.count - position) }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// `size` bytes, little-endian.
    mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(truncatingIfNeeded: byte()) << (8 * index)
        }
        return value
    }

    /// Small integers most of the time, any Int64 now and then.
    mutating func int() -> Int {
        let tag = byte()
        switch tag & 3 {
        case 0: return Int(Int8(bitPattern: byte()))
        case 1: return Int(Int16(bitPattern: integer(UInt16.self)))
        case 2: return Int(Int32(bitPattern: integer(UInt32.self)))
        default: return Int(Int64(bitPattern: integer(UInt64.self)))
        }
    }

    /// A finite double usually; any bit pattern (NaN, infinities, subnormals) now and then.
    mutating func double() -> Double {
        let tag = byte()
        switch tag & 3 {
        case 0: return Double(Int16(bitPattern: integer(UInt16.self))) / 8
        case 1: return Double(Int32(bitPattern: integer(UInt32.self))) * 1.5
        default: return Double(bitPattern: integer(UInt64.self))
        }
    }

    /// Up to `maxLength` bytes (length from one byte), decoded leniently as UTF-8.
    mutating func string(maxLength: Int = 63) -> String {
        String(decoding: rawBytes(maxLength: maxLength), as: UTF8.self)
    }

    mutating func rawBytes(maxLength: Int) -> [UInt8] {
        let length = min(Int(byte()) % (maxLength + 1), remaining)
        defer { position += length }
        return Array(bytes[position..<(position + length)])
    }

    /// The rest of the input.
    mutating func rest() -> [UInt8] {
        guard position < bytes.count else { return [] }
        defer { position = bytes.count }
        return Array(bytes[position...])
    }
}
