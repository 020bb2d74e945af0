// swift-tools-version: 6.2

import PackageDescription

let package = Package(
    name: "typewire",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TypewireCore", targets: ["TypewireCore"]),
        .executable(name: "typewire", targets: ["typewire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.0.0"),
    ],
    targets: [
        .target(name: "TypewireCore"),
        .executableTarget(
            name: "typewire",
            dependencies: [
                "TypewireCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "TypewireCoreTests",
            dependencies: [
                "TypewireCore",
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
