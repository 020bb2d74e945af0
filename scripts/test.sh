#!/usr/bin/env bash
# Runs every test of the repository, in order, and stops at the first failure:
#   0. `swift format lint --strict` with the repository's .swift-format (the toolchain's swift-format),
#   1. an app's package that adds this checkout for the client products only: it resolves none of the server's
#      packages and builds (scripts/consumer_check.sh, in this checkout's build folder, so that the packages
#      both need are compiled once), then everything (so a broken executable fails too),
#   2. the Swift tests,
#   3. the web demo's JavaScript tests (node's built-in runner),
#   4. the browser tests (pytest + selenium + headless Chromium) against the built server,
#   5. the abuse tests (pytest): requests no browser sends, against the built server,
#   6. the integration guide (pytest): docs/INTEGRATION.md's commands run as written,
#   7. the fault tests (pytest + websocket-client): a killed client, a silent network loss, a full and a
#      read-only disk under the built server (docs/RELIABILITY.md). As root they mount small file
#      systems and make a network namespace; without the permission those cases are skipped, saying why.
#      The two that take a minute each, mostly waiting (a phone's link, a webhook receiver down), run each in
#      a pytest of its own beside the others.
# Needs: Swift 6.2+, node 18+, python3 with pytest, selenium, websocket-client and cryptography, curl, openssl, chromium and
# chromedriver, iproute2, e2fsprogs (`bash .ci/run` installs them on Debian, then runs this script).
# Browser screenshots and the servers' logs go to .artifacts/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (seconds since the script began), so a slow CI run shows which step grew.
step() { printf '\n==> %s (at %d s)\n' "$*" "$SECONDS"; }

# No debug information (DWARF): CI builds from scratch on 2 cores, and the tests report their failures by
# source location without it. Every `swift` call below passes the same flags, so none rebuilds for them
# (Package.swift gives Hummingbird one trait, so that its flags, too, are the same from one call to the next).
# No index of the toolchain's own modules either (the standard library, Foundation): the index is kept only
# because SwiftPM finds the tests through it on Linux, and the tests' units are still written. One clean build
# each, minutes apart on the 2-core CI machine: 599 s with them indexed, 550 s without.
BUILD=(-debug-info-format none -Xswiftc -index-ignore-system-modules)
step "swift format lint --strict -r Sources Tests Package.swift"
swift format lint --strict -r Sources Tests Package.swift
step "bash scripts/consumer_check.sh --scratch-path .build ${BUILD[*]}"
bash scripts/consumer_check.sh --scratch-path .build "${BUILD[@]}"
step "swift build --build-tests ${BUILD[*]}"
swift build --build-tests "${BUILD[@]}"
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
LONG_FAULTS=(
    Tests/Faults/test_client_mobile_link.py
    Tests/Faults/test_webhooks.py::test_a_receiver_down_for_a_minute_gets_every_event_once_after_dedupe
)
mkdir -p .artifacts
step "python3 -m pytest Tests/Faults, and beside it, each in a pytest of its own: ${LONG_FAULTS[*]}"
long_faults=()
for index in "${!LONG_FAULTS[@]}"; do
    python3 -m pytest -p no:cacheprovider --durations=5 "${LONG_FAULTS[$index]}" >".artifacts/long_faults_$index.log" 2>&1 &
    long_faults+=($!)
done
trap 'kill "${long_faults[@]}" 2>/dev/null || true' EXIT
faults_status=0
python3 -m pytest --durations=5 Tests/Faults "${LONG_FAULTS[@]/#/--deselect=}" || faults_status=$?
long_faults_status=0
for pid in "${long_faults[@]}"; do wait "$pid" || long_faults_status=$?; done
step "the long fault tests (.artifacts/long_faults_*.log)"
cat .artifacts/long_faults_*.log
if [ "$faults_status" -ne 0 ] || [ "$long_faults_status" -ne 0 ]; then
    echo "error: fault tests failed (pytest exit $faults_status; a long one's pytest exit $long_faults_status)" >&2
    exit 1
fi
step "done"
