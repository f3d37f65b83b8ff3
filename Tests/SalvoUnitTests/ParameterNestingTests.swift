import XCTest
import Salvo
import SalvoTestSupport

/// Parameters nested a hundred thousand levels deep fail with an encoding error instead of
/// running the thread out of stack, and nesting up to `ParameterNesting.maximumDepth` still
/// encodes. Encoding runs on a thread with 512 KiB of stack, the smallest a server runs on.
final class ParameterNestingTests: XCTestCase {
    private indirect enum Node: Encodable, Sendable {
        case leaf
        case nested(Node)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            switch self {
            case .leaf: try container.encode("x", forKey: .value)
            case let .nested(child): try container.encode(child, forKey: .child)
            }
        }

        enum Key: CodingKey { case value, child }
    }

    /// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it.
    private static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    /// A value nested `depth` levels: dictionaries and arrays alternating, a string inside.
    /// Built and released on a thread with a large stack, since releasing it recurses too:
    /// the encoding thread reaches it only through `holder`, emptied here once it is done.
    private static func withNested(depth: Int, _ body: @escaping @Sendable (Parameters) -> Void) {
        onThread(stackSize: 1 << 30) {
            var value: any Any & Sendable = "x"
            for level in 0..<depth { value = level.isMultiple(of: 2) ? ["k": value] as [String: any Any & Sendable] : [value] }
            let holder = Holder(["root": value])
            value = "x"
            Self.onThread(stackSize: 512 << 10) { holder.value.map(body) }
            holder.value = nil
        }
    }

    /// Keeps a value that only one thread at a time touches (the threads run one after the other).
    private final class Holder<Value>: @unchecked Sendable { // sequential threads, joined by a semaphore
        var value: Value?
        init(_ value: Value) { self.value = value }
    }

    private static func isTooDeep(_ error: (any Error)?) -> Bool {
        var underlying: (any Error)? = error
        if let afError = error as? AFError { underlying = afError.underlyingError }
        guard case let .invalidValue(_, context)? = underlying as? EncodingError else { return false }
        return context.debugDescription.contains("\(ParameterNesting.maximumDepth) levels")
    }

    func testURLEncodingFailsPastTheLimit() {
        let request = URLRequest(url: URL(string: "https://example.com/")!)
        let outcome = Box<String>()
        Self.withNested(depth: 100_000) { parameters in
            do {
                _ = try URLEncoding.default.encode(request, with: parameters)
                outcome.set("encoded")
            } catch {
                outcome.set(Self.isTooDeep(error) ? "too deep" : "\(error)")
            }
            // The public component walk cannot throw: it stops at the limit.
            _ = URLEncoding.default.queryComponents(fromKey: "root", value: parameters["root"]!)
        }
        XCTAssertEqual(outcome.value, "too deep")
    }

    func testJSONEncodingFailsPastTheLimit() {
        let request = URLRequest(url: URL(string: "https://example.com/")!)
        let outcome = Box<String>()
        Self.withNested(depth: 100_000) { parameters in
            do {
                _ = try JSONEncoding.default.encode(request, with: parameters)
                outcome.set("encoded")
            } catch {
                outcome.set(Self.isTooDeep(error) ? "too deep" : "\(error)")
            }
        }
        XCTAssertEqual(outcome.value, "too deep")
    }

    /// Sorted keys are JSONSerialization's work, which recurses without a limit of its own.
    func testJSONSerializationIsNotReachedPastTheLimit() {
        let request = URLRequest(url: URL(string: "https://example.com/")!)
        let outcome = Box<String>()
        Self.withNested(depth: 100_000) { parameters in
            do {
                _ = try JSONEncoding(options: .sortedKeys).encode(request, with: parameters)
                outcome.set("encoded")
            } catch {
                outcome.set(Self.isTooDeep(error) ? "too deep" : "\(error)")
            }
        }
        XCTAssertEqual(outcome.value, "too deep")
    }

    func testTheFormEncoderFailsPastTheLimit() {
        let outcome = Box<String>()
        Self.onThread(stackSize: 1 << 30) {
            var node = Node.leaf
            for _ in 0..<100_000 { node = .nested(node) }
            let holder = Holder(node)
            node = .leaf
            Self.onThread(stackSize: 512 << 10) {
                guard let deep = holder.value else { return }
                do {
                    _ = try URLEncodedFormEncoder().encode(deep) as String
                    outcome.set("encoded")
                } catch {
                    outcome.set(Self.isTooDeep(error) ? "too deep" : "\(error)")
                }
            }
            holder.value = nil
        }
        XCTAssertEqual(outcome.value, "too deep")
    }

    func testNestingUpToTheLimitEncodes() throws {
        let request = URLRequest(url: URL(string: "https://example.com/")!)
        // The parameters dictionary is the first level.
        var value: any Any & Sendable = "x"
        for _ in 0..<(ParameterNesting.maximumDepth - 1) { value = [value] }
        let parameters: Parameters = ["a": value]
        XCTAssertNoThrow(try URLEncoding.default.encode(request, with: parameters))
        XCTAssertNoThrow(try JSONEncoding.default.encode(request, with: parameters))
        XCTAssertNoThrow(try JSONEncoding(options: .sortedKeys).encode(request, with: parameters))
        XCTAssertThrowsError(try URLEncoding.default.encode(request, with: ["a": [value]]))
        XCTAssertThrowsError(try JSONEncoding.default.encode(request, with: ["a": [value]]))

        var node = Node.leaf
        for _ in 0..<(ParameterNesting.maximumDepth - 1) { node = .nested(node) }
        XCTAssertNoThrow(try URLEncodedFormEncoder().encode(node) as String)
        XCTAssertThrowsError(try URLEncodedFormEncoder().encode(Node.nested(node)) as String)
    }
}
