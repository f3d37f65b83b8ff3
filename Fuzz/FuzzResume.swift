// Target `resume`: `DownloadResumeData.init(_ data: Data)` and `ResumeConvertible`.
//
// Each input is read twice: as raw bytes, and as a recipe for a JSON object whose fields
// (present or not, of the right type or not, with values from the input) are written as
// Salvo writes resume data, so that most inputs get past the JSON parser. Whatever decodes
// must satisfy what the initializer promises, and survive `encoded` unchanged.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func fuzzResume(_ bytes: [UInt8]) {
    checkResumeData(Data(bytes))
    var input = FuzzReader(bytes)
    checkResumeData(Data(makeResumeJSON(&input).utf8))
}

private func checkResumeData(_ data: Data) {
    guard let resume = try? DownloadResumeData(data) else { return }
    fuzzCheck(resume.format == DownloadResumeData.formatName && resume.version == 1 && resume.bytes >= 0,
                 "DownloadResumeData accepted \(resume)")
    fuzzCheck(resume.ifRange != nil, "DownloadResumeData accepted data with no usable validator: \(resume)")
    let again = try? DownloadResumeData(resume.encoded)
    fuzzCheck(again == resume, "DownloadResumeData did not survive encoded: \(resume) became \(String(describing: again))")
    if let request = try? ResumeConvertible(resumeData: data).asURLRequest() {
        fuzzCheck(request.httpMethod == "GET", "ResumeConvertible made a \(String(describing: request.httpMethod)) request")
    }
}

/// A JSON string literal: the input's text with the escapes JSON requires, and now and then
/// a `\u` escape the input chose (lone surrogates included).
private func jsonString(_ input: inout FuzzReader) -> String {
    var out = "\""
    for scalar in input.string(maxLength: 40).unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "~":
            let code = input.integer(UInt16.self)
            out += "\\u" + String(format: "%04x", code)
        default:
            if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out + "\""
}

private func jsonNumber(_ input: inout FuzzReader) -> String {
    switch input.byte() % 8 {
    case 0: return String(input.int())
    case 1: return String(input.double())
    case 2: return "9223372036854775808"
    case 3: return "-0"
    case 4: return "1e3"
    case 5: return String(UInt64(truncatingIfNeeded: input.int()))
    default: return String(input.int().magnitude)
    }
}

/// A value for a field: usually of the type the field wants, sometimes another.
private func jsonValue(_ input: inout FuzzReader, wantsString: Bool, good: String) -> String? {
    switch input.byte() % 10 {
    case 0: return nil // field absent
    case 1: return "null"
    case 2: return wantsString ? jsonNumber(&input) : jsonString(&input)
    case 3: return input.bool() ? "true" : "[]"
    case 4, 5: return good
    default: return wantsString ? jsonString(&input) : jsonNumber(&input)
    }
}

private func makeResumeJSON(_ input: inout FuzzReader) -> String {
    var fields: [(String, String)] = []
    func add(_ name: String, _ value: String?) { if let value { fields.append((name, value)) } }
    let etagGood = ["\"\\\"5e1f-2a\\\"\"", "\"W/\\\"weak\\\"\"", "\"\""][Int(input.byte() % 3)]
    add("format", jsonValue(&input, wantsString: true, good: "\"org.salvo.resume-data\""))
    add("version", jsonValue(&input, wantsString: false, good: "1"))
    add("url", jsonValue(&input, wantsString: true, good: "\"https://example.com/big.bin\""))
    add("bytes", jsonValue(&input, wantsString: false, good: "1048576"))
    add("partialFile", jsonValue(&input, wantsString: true, good: "\"/tmp/org.salvo.downloads/6F0C.partial\""))
    add("etag", jsonValue(&input, wantsString: true, good: etagGood))
    add("lastModified", jsonValue(&input, wantsString: true, good: "\"Tue, 01 Dec 2026 10:00:00 GMT\""))
    let extra = input.byte()
    if extra & 1 != 0 { add(input.string(maxLength: 8).filter { $0 != "\"" && $0 != "\\" && $0.asciiValue.map { $0 >= 0x20 } ?? true }, jsonNumber(&input)) }
    if extra & 2 != 0, let first = fields.first { fields.append(first) } // a duplicate key
    if extra & 4 != 0 {
        var random = FuzzRandom(seed: UInt64(extra))
        fields.shuffle(using: &random)
    }
    let body = fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: extra & 8 != 0 ? ", " : ",")
    return extra & 16 != 0 ? "[{" + body + "}]" : "{" + body + "}"
}

/// A deterministic generator, so an input always decodes to the same JSON.
struct FuzzRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
