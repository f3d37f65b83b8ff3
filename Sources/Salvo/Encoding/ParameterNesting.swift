import Foundation

/// How deeply parameters may nest.
///
/// Salvo's encoders walk nested dictionaries, arrays and `Encodable` values by recursion, one
/// stack frame or more per level. Past `maximumDepth` levels they fail with an
/// `EncodingError.invalidValue` (wrapped in the encoder's usual `AFError`) instead of running
/// the thread out of stack, which would end the process: a server that encodes what its
/// clients sent must not crash on a payload nested a hundred thousand levels deep.
/// Alamofire has no such limit; real parameters nest a few levels.
public enum ParameterNesting {
    /// 128 levels: a few hundred kilobytes of stack at most, even unoptimised, which fits
    /// the smallest thread stacks a server runs on (512 KiB).
    public static let maximumDepth = 128

    /// The error an encoder throws past `maximumDepth`, naming the value it stopped at.
    static func tooDeep(_ value: Any, codingPath: [any CodingKey] = []) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath,
            debugDescription: "The parameters nest deeper than \(maximumDepth) levels (ParameterNesting.maximumDepth)."))
    }

    /// Whether dictionaries and arrays in `object` nest deeper than `maximumDepth`, found
    /// without recursion (for the paths that hand parameters to Foundation, which recurses).
    static func exceedsMaximumDepth(_ object: Any) -> Bool {
        var pending: [(value: Any, depth: Int)] = [(object, 1)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case let dictionary as [String: Any]:
                if depth > maximumDepth { return true }
                for child in dictionary.values { pending.append((child, depth + 1)) }
            case let array as [Any]:
                if depth > maximumDepth { return true }
                for child in array { pending.append((child, depth + 1)) }
            default:
                continue
            }
        }
        return false
    }
}
