// swift-tools-version:6.0
import PackageDescription

// SALVO_TSAN=1 (set by Scripts/tsan.sh) builds Salvo with a pthread-based `Mutex` that
// ThreadSanitizer can see (Sources/Salvo/Support/TSanMutex.swift) in place of
// `Synchronization.Mutex`, whose contended path it cannot. Unset, nothing changes.
let tsanLocks: [SwiftSetting] = Context.environment["SALVO_TSAN"] == "1" ? [.define("SALVO_TSAN_LOCKS")] : []

let package = Package(
    name: "Salvo",
    products: [
        .library(name: "Salvo", targets: ["Salvo"]),
        .library(name: "SalvoBulk", targets: ["SalvoBulk"]),
        .executable(name: "salvo", targets: ["salvo"]),
        .executable(name: "salvo-bench", targets: ["salvo-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // zlib, for DeflateRequestCompressor (libcurl links it already).
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // OpenSSL's libcrypto, for the bulk downloader's checksums and the trust evaluators'
        // certificates (libcurl links it for TLS).
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The header collector libcurl calls for every response header line, in C (see
        // Sources/CSalvoHeaders/include/salvo_header_block.h).
        .target(
            name: "CSalvoHeaders",
            path: "Sources/CSalvoHeaders"
        ),
        // The CA store every verified TLS connection of a session shares, in C (see
        // Sources/CSalvoTLS/include/salvo_tls_store.h): OpenSSL's libssl, which libcurl links.
        .target(
            name: "CSalvoTLS",
            path: "Sources/CSalvoTLS",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("curl")]
        ),
        // The libcurl engine: the event loop, easy handles, transfers. The only user of CCurl,
        // CSalvoHeaders and CSalvoTLS; Salvo reaches it through its `package` declarations.
        .target(
            name: "SalvoEngine",
            dependencies: ["CCurl", "CSalvoHeaders", "CSalvoTLS"],
            path: "Sources/SalvoEngine",
            swiftSettings: tsanLocks
        ),
        .target(
            name: "Salvo",
            dependencies: ["SalvoEngine", "CZlib", "CCrypto"],
            path: "Sources/Salvo",
            swiftSettings: tsanLocks
        ),
        // The bulk downloader the `salvo` tool drives: its own module, so that `import Salvo`
        // offers Alamofire's API alone.
        .target(
            name: "SalvoBulk",
            dependencies: ["Salvo", "SalvoEngine", "CCrypto"],
            path: "Sources/SalvoBulk",
            swiftSettings: tsanLocks
        ),
        .executableTarget(
            name: "salvo",
            dependencies: ["SalvoBulk", "Salvo"],
            path: "Sources/salvo"
        ),
        // The raw libcurl baseline salvo-bench measures Salvo against.
        .target(
            name: "CurlBaseline",
            path: "Benchmarks/CurlBaseline",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .executableTarget(
            name: "salvo-bench",
            dependencies: ["Salvo", "CurlBaseline"],
            path: "Benchmarks/salvo-bench"
        ),
        // Small helpers both test targets share (no XCTest, no Salvo).
        .target(
            name: "SalvoTestSupport",
            path: "Tests/SalvoTestSupport"
        ),
        // Tests without servers, sockets or subprocesses: `swift test --filter SalvoUnitTests`
        // runs them in seconds.
        .testTarget(
            name: "SalvoUnitTests",
            dependencies: ["Salvo", "SalvoBulk", "SalvoEngine", "SalvoTestSupport"],
            path: "Tests/SalvoUnitTests"
        ),
        // Tests against the loopback servers (httpbin, nginx, the fault server) and the
        // `salvo` tool, which they start themselves.
        .testTarget(
            name: "SalvoIntegrationTests",
            dependencies: ["Salvo", "SalvoBulk", "SalvoEngine", "SalvoTestSupport"],
            path: "Tests/SalvoIntegrationTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
