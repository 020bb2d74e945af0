#!/usr/bin/env bash
# The consumer-package check: Tests/Consumer, a package of the kind an iOS app writes, adds this checkout
# with the README's package line (`traits: []`: TypewireClient and TypewireUI only). It resolves, it must
# list none of the packages only the server, its tools and its tests use (the `Server` trait's), and it
# builds. Prints what it resolved.
#   bash scripts/consumer_check.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$root" "$work/typewire"
mkdir "$work/ChatApp"
cp -r "$root/Tests/Consumer/Package.swift" "$root/Tests/Consumer/Sources" "$work/ChatApp/"
cd "$work/ChatApp"
if ! swift package resolve >"$work/resolve.log" 2>&1; then
    cat "$work/resolve.log" >&2
    exit 1
fi
swift package show-dependencies --format json >"$work/dependencies.json"
python3 - "$work/dependencies.json" <<'PYTHON'
import json
import sys

# The packages Package.swift names only under the `Server` trait.
SERVER_ONLY = {
    "hummingbird", "sqlite-nio", "postgres-nio", "jwt-kit", "swift-prometheus", "swift-argument-parser",
    "hdrhistogram-swift", "swift-clocks", "swift-property-based",
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
# No index store: the package has no tests to discover (on Linux SwiftPM finds tests through the index, so the
# main build keeps it), and indexing took 27 s of this build's 216 s on the 2-core CI machine.
swift build --disable-index-store -debug-info-format none 2>&1 | tail -1
