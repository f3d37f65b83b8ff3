/// What the command line asked for.
struct BenchOptions {
    enum Suite: String, CaseIterable {
        case encoding, dispatch
        case tlsConnect = "tls-connect"
        case transfers
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    var suites: [Suite] = Suite.allCases
    var quick = false
    var jsonPath: String?
    var rounds: Int?
    var requests: Int?
    var inflight: [Int] = [1, 16, 128, 1024]
    var protocols: [BenchProtocol] = BenchProtocol.defaults
    var clients: [DispatchClient] = DispatchClient.allCases
    /// tls-connect: connections opened at once in each run.
    var connections = 64
    /// tls-connect: the CA bundles clients verify against, one case each.
    var caBundles: [TLSConnectBundle] = TLSConnectBundle.allCases
    var nginxWorkers = 2
    var showHelp = false

    init(arguments: [String]) throws {
        var named: [Suite] = []
        var iterator = arguments.makeIterator()
        func value(for flag: String) throws -> String {
            guard let value = iterator.next() else { throw ParseError(description: "\(flag) needs a value") }
            return value
        }
        func positive(_ text: String, _ flag: String) throws -> Int {
            guard let number = Int(text), number > 0 else { throw ParseError(description: "\(flag): not a positive number: \(text)") }
            return number
        }
        while let argument = iterator.next() {
            switch argument {
            case "--quick": quick = true
            case "--json": jsonPath = try value(for: argument)
            case "--rounds": rounds = try positive(value(for: argument), argument)
            case "--requests": requests = try positive(value(for: argument), argument)
            case "--nginx-workers": nginxWorkers = try positive(value(for: argument), argument)
            case "--inflight":
                inflight = try value(for: argument).split(separator: ",").map { try positive(String($0), argument) }
            case "--protocols":
                protocols = try Self.list(value(for: argument), argument)
            case "--clients":
                clients = try Self.list(value(for: argument), argument)
            case "--connections": connections = try positive(value(for: argument), argument)
            case "--ca":
                caBundles = try Self.list(value(for: argument), argument)
            case "-h", "--help": showHelp = true
            default:
                guard let suite = Suite(rawValue: argument) else { throw ParseError(description: "unknown argument: \(argument)") }
                named.append(suite)
            }
        }
        if !named.isEmpty { suites = named }
    }

    /// Whether a suite that runs needs nginx's TLS port and the bench's certificates.
    var needsTLS: Bool {
        suites.contains(.tlsConnect) || (suites.contains(.dispatch) && protocols.contains(where: \.usesTLS))
    }

    private static func list<Item: RawRepresentable<String>>(_ text: String, _ flag: String) throws -> [Item] {
        try text.split(separator: ",").map {
            guard let item = Item(rawValue: String($0)) else { throw ParseError(description: "\(flag): unknown value \($0)") }
            return item
        }
    }
}
