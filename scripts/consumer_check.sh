#!/usr/bin/env bash
# The consumer-package check: Tests/Consumer, a package of the kind an iOS app writes, adds this checkout
# with the README's package line (`traits: []`: TypewireClient and TypewireUI only). It resolves, it must
# list none of the packages only the server, its tools and its tests use (the `Server` trait's), and it
# builds. Prints what it resolved.
#   bash scripts/consumer_check.sh [--scratch-path DIR] [swift build flags]
# Without --scratch-path the package builds in a folder of its own, removed at the end. scripts/test.sh passes
# this checkout's own build folder, still empty on CI's fresh clone, and the flags of its own build: the
# packages both builds need (SwiftNIO, swift-nio-ssl and its BoringSSL, swift-websocket, ...) are then checked
# out and compiled once, by this check, and the whole build after it reuses them. On the 2-core CI machine this
# check in a folder of its own took 189-265 s, most of it compiling what the whole build compiles again.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scratch="$work/build"
if [ "${1:-}" = "--scratch-path" ]; then
    scratch="$(mkdir -p "$2" && cd "$2" && pwd)"
    shift 2
fi
ln -s "$root" "$work/typewire"
mkdir "$work/ChatApp"
cp -r "$root/Tests/Consumer/Package.swift" "$root/Tests/Consumer/Sources" "$work/ChatApp/"
cd "$work/ChatApp"
if ! swift package --scratch-path "$scratch" resolve >"$work/resolve.log" 2>&1; then
    cat "$work/resolve.log" >&2
    exit 1
fi
swift package --scratch-path "$scratch" show-dependencies --format json >"$work/dependencies.json"
python3 - "$work/dependencies.json" <<'PYTHON'
import json
import sys

# The packages Package.swift names only under the `Server` trait.
SERVER_ONLY = {
    "hummingbird", "sqlite-nio", "postgres-nio", "jwt-kit", "swift-prometheus", "swift-argument-parser",
    "hdrhistogram-swift", "swift-clocks", "swift-property-based", "swift-extras-base64",
}
resolved = set()


def walk(node):
    for child in node.get("dependencies", []):
        resolved.add(child["identity"])
        walk(child)


walk(json.load(open(sys.argv[1])))
print("a client-only app resolved:", ", ".join(sorted(resolved - {"typewire"})))
leaked = sorted(resolved & SERVER_ONLY)
if leaked:
    sys.exit("error: a client-only app resolves server packages: " + ", ".join(leaked))
PYTHON
if ! swift build --scratch-path "$scratch" "$@" >"$work/build.log" 2>&1; then
    tail -n 60 "$work/build.log" >&2
    exit 1
fi
tail -n 1 "$work/build.log"
