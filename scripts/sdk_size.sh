#!/usr/bin/env bash
# What the client SDK adds to an app, on Linux (a proxy: on Apple platforms the socket is URLSession's and
# no SwiftNIO is linked): two release executables in a package of their own that adds this checkout as an
# app does (`traits: []`), one doing a URL's work alone and one running a TypewireClient, both linking the
# Swift runtime and Foundation dynamically; prints their stripped sizes.
#   bash scripts/sdk_size.sh [SCRATCH-PATH]   (default: a folder of its own, removed at the end)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scratch="${1:-$work/build}"
mkdir -p "$work/SizeCheck/Sources/Baseline" "$work/SizeCheck/Sources/WithClient"
ln -s "$root" "$work/typewire"
cat >"$work/SizeCheck/Package.swift" <<'SWIFT'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "SizeCheck",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "../typewire", traits: [])],
    targets: [
        .executableTarget(name: "Baseline"),
        .executableTarget(name: "WithClient", dependencies: [.product(name: "TypewireClient", package: "typewire")]),
    ]
)
SWIFT
cat >"$work/SizeCheck/Sources/Baseline/main.swift" <<'SWIFT'
import Foundation

let url = URL(string: CommandLine.arguments.dropFirst().first ?? "ws://127.0.0.1:8080/v1/socket")!
print(url.absoluteString)
SWIFT
cat >"$work/SizeCheck/Sources/WithClient/main.swift" <<'SWIFT'
import Foundation
import TypewireClient

let url = CommandLine.arguments.dropFirst().first ?? "ws://127.0.0.1:8080/v1/socket"
let client = TypewireClient(url: url) { "token" }
Task {
    let chat = await client.conversation("direct-alice-bob")
    for await state in chat.typing { print(state.text ?? "") }
}
Task { try await client.run() }
print(url)
SWIFT
cd "$work/SizeCheck"
swift build -c release --scratch-path "$scratch" >"$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; exit 1; }
for product in Baseline WithClient; do
    cp "$scratch/release/$product" "$work/$product.stripped"
    strip "$work/$product.stripped"
    printf '%-10s %10d bytes stripped\n' "$product" "$(stat -c %s "$work/$product.stripped")"
done
