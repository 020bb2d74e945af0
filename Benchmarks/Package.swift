// swift-tools-version: 6.2

// Micro-benchmarks for TypewireCore, kept in their own package so that the main package
// does not depend on ordo-one/benchmark (and its malloc interposer) at all.
// Run from this folder: `swift package --disable-sandbox benchmark` (see README.md).

import PackageDescription

let package = Package(
    name: "TypewireBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "TypewireCoreBenchmarks",
            dependencies: [
                .product(name: "TypewireCore", package: "main"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "TypewireCoreBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
