// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Salvo",
    products: [
        .library(name: "Salvo", targets: ["Salvo"]),
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
        .target(
            name: "Salvo",
            dependencies: ["CCurl", "CZlib"],
            path: "Sources/Salvo"
        ),
        .executableTarget(
            name: "salvo",
            dependencies: ["Salvo"],
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
        .testTarget(
            name: "SalvoTests",
            dependencies: ["Salvo"],
            path: "Tests/SalvoTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
