// swift-tools-version: 6.1
// A sample chat app on the SDK: `swift run` on a Mac (with `swift run typewire serve --demo` in the repository).
// Apple platforms only (SwiftUI): CI on Linux does not build it; every SDK type it uses is tested there.
import PackageDescription

let package = Package(
    name: "TypewireChat",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        // The client products only: no server package is resolved.
        .package(path: "../..", traits: [])
    ],
    targets: [
        .executableTarget(name: "TypewireChat", dependencies: [.product(name: "TypewireUI", package: "typewire")])
    ]
)
