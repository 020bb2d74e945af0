// swift-tools-version: 6.2

// A package of the kind an iOS app writes, for `scripts/consumer_check.sh`: it adds Typewire with the
// README's package line (no traits: the client products only) next to a checkout named `typewire`.
import PackageDescription

let package = Package(
    name: "ChatApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: "../typewire", traits: [])
    ],
    targets: [
        .target(
            name: "ChatApp",
            dependencies: [
                .product(name: "TypewireClient", package: "typewire"),
                .product(name: "TypewireUI", package: "typewire"),
            ]
        )
    ]
)
