// Target `headers`: the response header parsers, Swift and C.
//
// - `ResponseHead.headerFields`, `value(forHeader:)` and `makeHTTPURLResponse()` on the
//   raw input as the header block (status line first, as libcurl hands it over).
// - `salvo_header_collect` fed the input line by line (split after each '\n', as libcurl
//   calls CURLOPT_HEADERFUNCTION; it checks each Content-Length line with
//   `salvo_header_block_check_length`), then `salvo_header_block_value` and
//   `salvo_header_block_has`; and `salvo_header_block_check_length` on the whole input.
//   (Before 1581b67 the length check was `salvo_header_block_length_is_invalid`, a scan of
//   the whole block at its end.)

internal import CCurl
internal import CSalvoHeaders
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let fixedNames = ["Content-Length", "content-type", "Location", "SET-COOKIE", "Transfer-Encoding", "", "K"]

func fuzzHeaders(_ bytes: [UInt8]) {
    fuzzSwiftHeaderParser(bytes)
    fuzzCHeaderBlock(bytes)
}

/// The header name on the input's second line, or nil: a name the fuzzer chose.
private func nameFromInput(_ bytes: [UInt8]) -> [UInt8]? {
    guard let firstEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = bytes[(firstEnd + 1)...].prefix { $0 != UInt8(ascii: "\n") }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    return Array(line[..<colon])
}

private func fuzzSwiftHeaderParser(_ bytes: [UInt8]) {
    let status = bytes.isEmpty ? 200 : Int(bytes[0]) * 3
    let head = ResponseHead(statusCode: status, httpVersion: bytes.count & 1 == 0 ? "1.1" : "2",
                            url: "https://example.com/files/a.bin", contentType: nil, redirectURL: nil,
                            rawHeaders: bytes)
    let fields = head.headerFields
    // Each name found is found again by value(forHeader:), with the same value; checked for
    // one name only, since every value(forHeader:) parses the whole block again.
    for (name, value) in fields.prefix(1) {
        fuzzCheck(!name.isEmpty, "headerFields has an empty name")
        let found = head.value(forHeader: name)
        fuzzCheck(found == value, "value(forHeader: \(name.debugDescription)) = \(found.debugDescription), headerFields has \(value.debugDescription)")
    }
    if let name = nameFromInput(bytes) {
        _ = head.value(forHeader: String(decoding: name, as: UTF8.self))
    }
    if let response = head.makeHTTPURLResponse() {
        fuzzCheck(response.statusCode == status, "HTTPURLResponse has status \(response.statusCode), not \(status)")
        _ = response.mimeType
        _ = response.textEncodingName
        _ = response.expectedContentLength
        _ = response.suggestedFilename
    }
}

private func fuzzCHeaderBlock(_ bytes: [UInt8]) {
    var block = salvo_header_block()
    block.event = { _, _, length in length }
    defer { free(block.bytes) }

    var buffer = bytes
    var fed = 0
    buffer.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        var start = 0
        while start < buffer.count {
            var end = start
            while end < buffer.count && buffer[end] != UInt8(ascii: "\n") { end += 1 }
            if end < buffer.count { end += 1 } // the line keeps its '\n', as from libcurl
            let length = end - start
            let line = UnsafeMutableRawPointer(base + start).assumingMemoryBound(to: CChar.self)
            let result = salvo_header_collect(line, 1, length, &block)
            fuzzCheck(block.count <= block.capacity, "salvo_header_block count beyond capacity")
            if result != length {
                // Only an invalid Content-Length line aborts, or a block grown past 1 MiB
                // (SALVO_HEADER_BLOCK_LIMIT, beyond -max_len here), or a failed realloc; the
                // line may or may not be counted then.
                fuzzCheck(result == 0 && (block.invalid_length == 1 || block.count + length > 1 << 20),
                          "salvo_header_collect returned \(result) for \(length)")
                fuzzCheck(block.bytes_seen == fed || block.bytes_seen == fed + length, "bytes_seen is not the sum of the lines")
                break
            }
            fed += length
            fuzzCheck(block.bytes_seen == fed, "bytes_seen is not the sum of the lines")
            start = end
        }
    }

    func checkValue(_ name: UnsafePointer<CChar>) {
        var length = 0
        if let value = salvo_header_block_value(&block, name, &length) {
            let low = UnsafeRawPointer(block.bytes!)
            let raw = UnsafeRawPointer(value)
            fuzzCheck(raw >= low && raw + length <= low + block.count, "header value outside the block")
            fuzzCheck(salvo_header_block_has(&block, name) != 0, "salvo_header_block_has disagrees with _value")
        } else {
            fuzzCheck(salvo_header_block_has(&block, name) == 0, "salvo_header_block_has disagrees with _value")
        }
    }
    for name in fixedNames { name.withCString(checkValue) }
    if var name = nameFromInput(bytes) {
        name.removeAll { $0 == 0 }
        name.append(0)
        name.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: $0.count, checkValue) }
    }

    // The Content-Length value parser on arbitrary bytes, with and without an earlier value.
    var lengths = salvo_header_block()
    if bytes.first.map({ $0 & 1 == 1 }) == true {
        lengths.content_length_seen = 1
        lengths.content_length = 5
    }
    let invalid = bytes.withUnsafeBufferPointer { salvo_header_block_check_length(&lengths, $0.baseAddress, $0.count) }
    if invalid == 0 {
        fuzzCheck(lengths.content_length_seen == 1 && lengths.content_length <= UInt64(Int64.max),
                  "salvo_header_block_check_length accepted a value and recorded none or one beyond 63 bits")
    }
}
