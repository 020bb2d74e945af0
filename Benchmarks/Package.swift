// swift-tools-version: 6.2

// Micro-benchmarks for TypewireCore and TypewireClient, kept in their own package so that the main package
// does not depend on ordo-one/benchmark (and its malloc interposer) at all.
// Run from this folder: `swift package --disable-sandbox benchmark` (see README.md).

import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, so the repository may be cloned under any name.
let typewirePackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

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
                .product(name: "TypewireCore", package: typewirePackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "TypewireCoreBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "TypewireClientBenchmarks",
            dependencies: [
                .product(name: "TypewireClient", package: typewirePackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "TypewireClientBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
