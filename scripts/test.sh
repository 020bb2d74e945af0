#!/usr/bin/env bash
# Runs every test of the repository, in order, and stops at the first failure:
#   0. `swift format lint --strict` with the repository's .swift-format (the toolchain's swift-format),
#   1. builds everything (so a broken executable fails too), and an app's package that adds this checkout
#      for the client products only: it resolves none of the server's packages and builds
#      (scripts/consumer_check.sh; not beside the fault tests: two of them failed with its build at nice 19
#      beside them, in a fresh-clone CI run),
#   2. the Swift tests,
#   3. the web demo's JavaScript tests (node's built-in runner),
#   4. the browser tests (pytest + selenium + headless Chromium) against the built server,
#   5. the abuse tests (pytest): requests no browser sends, against the built server,
#   6. the integration guide (pytest): docs/INTEGRATION.md's commands run as written,
#   7. the fault tests (pytest + websocket-client): a killed client, a silent network loss, a full and a
#      read-only disk under the built server (docs/RELIABILITY.md). As root they mount small file
#      systems and make a network namespace; without the permission those cases are skipped, saying why.
# Needs: Swift 6.2+, node 18+, python3 with pytest, selenium, websocket-client and cryptography, curl, openssl, chromium and
# chromedriver, iproute2, e2fsprogs (`bash .ci/run` installs them on Debian, then runs this script).
# Browser screenshots and the servers' logs go to .artifacts/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (seconds since the script began), so a slow CI run shows which step grew.
step() { printf '\n==> %s (at %d s)\n' "$*" "$SECONDS"; }

# No debug information (DWARF): CI builds from scratch on 2 cores, and the tests report their failures by
# source location without it. Every `swift` call below passes the same flags, so none rebuilds for them (the
# first `swift test` after a clean build still recompiles Hummingbird, about 30 s: so does a second
# `swift build` with the same flags, some of the time).
# No index of the toolchain's own modules either (the standard library, Foundation): the index is kept only
# because SwiftPM finds the tests through it on Linux, and the tests' units are still written. One clean build
# each, minutes apart on the 2-core CI machine: 599 s with them indexed, 550 s without.
BUILD=(-debug-info-format none -Xswiftc -index-ignore-system-modules)
step "swift format lint --strict -r Sources Tests Package.swift"
swift format lint --strict -r Sources Tests Package.swift
step "swift build --build-tests ${BUILD[*]}"
swift build --build-tests "${BUILD[@]}"
step "bash scripts/consumer_check.sh"
bash scripts/consumer_check.sh
# The decoder's property tests (100 000 inputs) and `typewire bench` (two servers and a load generator)
# load both cores for seconds; they run on their own, so that the timing tests' liveness bounds do not
# measure them. Plain `swift test` runs everything at once.
step "swift test (all but the fuzzing and the bench)"
swift test "${BUILD[@]}" --skip "FrameDecoderPropertyTests|BenchCommandTests"
step "swift test (the fuzzing and the bench)"
swift test "${BUILD[@]}" --filter "FrameDecoderPropertyTests|BenchCommandTests"
step "node --test Tests/JavaScript/"
node --test Tests/JavaScript/
step "python3 -m pytest Tests/Browser"
python3 -m pytest --durations=5 Tests/Browser
step "python3 -m pytest Tests/Abuse"
python3 -m pytest --durations=5 Tests/Abuse
step "python3 -m pytest Tests/Integration"
python3 -m pytest --durations=5 Tests/Integration
step "python3 -m pytest Tests/Faults"
python3 -m pytest --durations=5 Tests/Faults
step "done"
