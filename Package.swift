// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "typewire",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TypewireCore", targets: ["TypewireCore"]),
        .library(name: "TypewireSimulation", targets: ["TypewireSimulation"]),
        .library(name: "TypewireServer", targets: ["TypewireServer"]),
        .library(name: "TypewireClient", targets: ["TypewireClient"]),
        .library(name: "TypewireUI", targets: ["TypewireUI"]),
        .library(name: "TypewireTesting", targets: ["TypewireTesting"]),
        .executable(name: "typewire", targets: ["typewire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.2.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .target(name: "TypewireCore"),
        // The fidelity simulator behind `typewire simulate` and docs/FIDELITY.md: not part of an app's core.
        .target(name: "TypewireSimulation", dependencies: ["TypewireCore"]),
        .target(
            name: "TypewireServer",
            dependencies: [
                "TypewireCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
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
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TypewireUI",
            dependencies: ["TypewireCore", "TypewireClient"]
        ),
        .target(
            name: "TypewireTesting",
            dependencies: [
                "TypewireServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TypewireDemo",
            dependencies: [
                "TypewireCore",
                "TypewireClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `typewire bench` and `typewire relay`: the load generator and the bare broadcast baseline.
        .target(
            name: "TypewireBench",
            dependencies: [
                "TypewireCore",
                "TypewireServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "typewire",
            dependencies: [
                "TypewireCore",
                "TypewireSimulation",
                "TypewireServer",
                "TypewireDemo",
                "TypewireBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
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
                "TypewireTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
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
                "TypewireClient",
                "TypewireTesting",
                "TypewireFuzzing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // `typewire bench` run as built, in a tiny configuration.
        .testTarget(name: "TypewireBenchTests"),
        .testTarget(
            name: "TypewireClientTests",
            dependencies: [
                "TypewireCore",
                "TypewireClient",
                "TypewireTesting",
                "TypewireServer",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
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
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TypewireUITests",
            dependencies: ["TypewireCore", "TypewireClient", "TypewireUI", "TypewireTesting"]
        ),
        .testTarget(name: "TypewireSimulationTests", dependencies: ["TypewireCore", "TypewireSimulation"]),
    ],
    swiftLanguageModes: [.v6]
)
