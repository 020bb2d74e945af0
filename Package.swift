// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "typewire",
    defaultLocalization: "en",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "TypewireCore", targets: ["TypewireCore"]),
        .library(name: "TypewireSimulation", targets: ["TypewireSimulation"]),
        .library(name: "TypewireServer", targets: ["TypewireServer"]),
        .library(name: "TypewireClient", targets: ["TypewireClient"]),
        .library(name: "TypewireUI", targets: ["TypewireUI"]),
        .library(name: "TypewireTesting", targets: ["TypewireTesting"]),
        .executable(name: "typewire", targets: ["typewire"]),
    ],
    traits: [
        .trait(
            name: "Server",
            description:
                "The server, its tools and its tests. An app that only links TypewireClient or TypewireUI adds the package with `traits: []` and resolves none of their dependencies."
        ),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        // One trait, not Hummingbird's two defaults (ConfigurationSupport is for swift-configuration's readers, which
        // the server does not use): SwiftPM 6.3 writes a package's trait flags in an order that changes from one
        // `swift build` or `swift test` to the next, and with two of them Hummingbird compiled again about every
        // other time (20-30 s of each CI run).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.2.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        .target(name: "TypewireCore"),
        // The fidelity simulator behind `typewire simulate` and docs/FIDELITY.md: not part of an app's core.
        .target(name: "TypewireSimulation", dependencies: ["TypewireCore"]),
        // A client of NATS's core protocol on SwiftNIO, for the cluster bus (no NATS client is among the packages).
        .target(
            name: "TypewireNATS",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        .target(
            name: "TypewireServer",
            dependencies: [
                "TypewireCore",
                "TypewireNATS",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                server("SQLiteNIO", "sqlite-nio"),
                server("PostgresNIO", "postgres-nio"),
                server("JWTKit", "jwt-kit"),
                server("ExtrasBase64", "swift-extras-base64"),
                server("Crypto", "swift-crypto"),
                server("Prometheus", "swift-prometheus"),
                server("AsyncHTTPClient", "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        .target(
            name: "TypewireClient",
            dependencies: [
                "TypewireCore",
                // Off Apple platforms only: there the socket is URLSession's WebSocket task, and no SwiftNIO stack
                // is linked for it (`Transport/URLSessionSocketTransport.swift`).
                .product(
                    name: "WSClient", package: "swift-websocket",
                    condition: .when(platforms: [.linux, .windows, .android, .openbsd, .wasi])
                ),
                // The REST API off Apple platforms, where URLSession would link the system's libcurl
                // (`Transport/HTTPGet.swift`).
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: [.linux, .windows, .android, .openbsd, .wasi])
                ),
                .product(
                    name: "NIOCore", package: "swift-nio",
                    condition: .when(platforms: [.linux, .windows, .android, .openbsd, .wasi])
                ),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            // Its privacy manifest only: the client reads no resource (its words are in code, ErrorText).
            resources: [.process("Resources")]
        ),
        .target(
            name: "TypewireUI",
            dependencies: ["TypewireCore", "TypewireClient"],
            resources: [.process("Resources")]
        ),
        .target(
            name: "TypewireTesting",
            dependencies: [
                "TypewireServer",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                server("PostgresNIO", "postgres-nio"),
                server("Hummingbird", "hummingbird"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TypewireDemo",
            dependencies: [
                "TypewireCore",
                "TypewireClient",
                .product(name: "Logging", package: "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        // `typewire bench` and `typewire relay`: the load generator and the bare broadcast baseline.
        .target(
            name: "TypewireBench",
            dependencies: [
                "TypewireCore",
                "TypewireServer",
                "TypewireClient",  // the SDK's reconnect backoff, for the reconnect storm
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                server("AsyncHTTPClient", "async-http-client"),
                server("Histogram", "hdrhistogram-swift"),
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "typewire",
            dependencies: [
                "TypewireCore",
                "TypewireSimulation",
                "TypewireServer",
                "TypewireNATS",
                "TypewireDemo",
                "TypewireBench",
                "TypewireClient",
                server("ArgumentParser", "swift-argument-parser"),
                server("Hummingbird", "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
            ]
        ),
        // Bad client frames for the decoder's property tests and the sockets' bad-input tests; not a product.
        .target(name: "TypewireFuzzing", dependencies: ["TypewireCore"], path: "Tests/TypewireFuzzing"),
        // The server's values and machines, and its channel handlers on test channels: seconds, no socket.
        .testTarget(
            name: "TypewireServerTests",
            dependencies: [
                "TypewireCore",
                "TypewireServer",
                "TypewireNATS",
                "TypewireTesting",
                server("Hummingbird", "hummingbird"),
                server("Crypto", "swift-crypto"),
                server("SQLiteNIO", "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The server over real sockets on loopback, by feature: typing, messages, REST, limits, auth,
        // shutdown and restart, the cluster (on PostgreSQL when TYPEWIRE_TEST_POSTGRES_URL is set).
        .testTarget(
            name: "TypewireEndToEndTests",
            dependencies: [
                "TypewireCore",
                "TypewireServer",
                "TypewireNATS",
                "TypewireClient",
                "TypewireTesting",
                "TypewireFuzzing",
                server("Hummingbird", "hummingbird"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                .product(name: "WSClient", package: "swift-websocket"),
                server("JWTKit", "jwt-kit"),
                server("_CryptoExtras", "swift-crypto"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // `typewire bench` run as built, in a tiny configuration, and its parts.
        .testTarget(name: "TypewireBenchTests", dependencies: ["TypewireBench"]),
        .testTarget(
            name: "TypewireClientTests",
            dependencies: [
                "TypewireCore",
                "TypewireClient",
                "TypewireTesting",
                "TypewireServer",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "TypewireDemoTests",
            dependencies: [
                "TypewireCore",
                "TypewireDemo",
                "TypewireClient",
                "TypewireTesting",
            ]
        ),
        .testTarget(
            name: "TypewireCoreTests",
            dependencies: [
                "TypewireCore",
                "TypewireFuzzing",
                server("Clocks", "swift-clocks"),
                server("PropertyBased", "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TypewireUITests",
            dependencies: ["TypewireCore", "TypewireClient", "TypewireUI", "TypewireTesting"]
        ),
        // docs/INTEGRATION.md's Firestore source against a fake of the Firestore calls it makes, compiled as a new
        // Xcode app target compiles it (isolated to the main actor by default).
        .testTarget(
            name: "TypewireFirestoreSampleTests",
            dependencies: ["TypewireCore", "TypewireClient", "TypewireUI", "TypewireTesting"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(name: "TypewireSimulationTests", dependencies: ["TypewireCore", "TypewireSimulation"]),
        // The NATS client: its decoder (fuzzed) and state machine as values, and the client against nats-server.
        .testTarget(
            name: "TypewireNATSTests",
            dependencies: [
                "TypewireNATS",
                "TypewireTesting",
                server("PropertyBased", "swift-property-based"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// A product only the server, its tools and its tests use: it counts only with the `Server` trait (on by
/// default), so an app that adds the package with `traits: []` resolves none of these packages.
func server(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Server"]))
}
