#!/usr/bin/env bash
# Runs every test of the repository, in order, and stops at the first failure:
#   0. `swift format lint --strict` with the repository's .swift-format (the toolchain's swift-format),
#   1. an app's package that adds this checkout for the client products only: it resolves none of the server's
#      packages and builds (scripts/consumer_check.sh, in this checkout's build folder, so that the packages
#      both need are compiled once), then everything (so a broken executable fails too),
#   2. the SDK's DocC documentation from its symbol graphs (scripts/docs.sh: a reference to nothing fails it),
#      then the Swift tests,
#   3. the web demo's JavaScript tests (node's built-in runner),
#   4. the Python suites against the built server, in two lanes beside each other: the browser tests (pytest +
#      selenium + headless Chromium), the abuse tests (requests no browser sends) and the integration guide
#      (docs/INTEGRATION.md's commands run as written) one after another in one lane; in the other, the
#      fault tests (pytest + websocket-client): a killed client, a silent network loss, a full and a
#      read-only disk under the built server (docs/RELIABILITY.md). As root they mount small file
#      systems and make a network namespace; without the permission those cases are skipped, saying why.
#      The two that take a minute each, mostly waiting (a phone's link, a webhook receiver down), run each in
#      a pytest of its own beside the others. As root the browser suite runs in a network namespace of its
#      own, so that the fault tests' address changes cannot fail Chromium's page loads (below).
# Needs: Swift 6.2+, node 18+, python3 with pytest, pytest-timeout, selenium, websocket-client and cryptography, curl, openssl, chromium and
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
step "bash scripts/docs.sh ${BUILD[*]}"
bash scripts/docs.sh "${BUILD[@]}"
# The decoder's property tests (100 000 inputs) and `typewire bench` (two servers and a load generator)
# load both cores for seconds; they run on their own, so that the timing tests' liveness bounds do not
# measure them. Plain `swift test` runs everything at once.
step "swift test (all but the fuzzing and the bench)"
swift test "${BUILD[@]}" --skip "FrameDecoderPropertyTests|BenchCommandTests"
step "swift test (the fuzzing and the bench)"
swift test "${BUILD[@]}" --filter "FrameDecoderPropertyTests|BenchCommandTests"
step "node --test Tests/JavaScript/"
node --test Tests/JavaScript/
# The Python suites run in two lanes beside each other, each suite in a pytest of its own and its output in
# .artifacts/pytest_*.log, printed once all are done: the browser, abuse and integration suites one after
# another in one lane; the fault tests in the other, with the two that take a minute each, mostly waiting
# (a phone's link, a webhook receiver down), in pytests of their own beside them. One after another they
# took 181 s of a 619 s run on 2026-11-28; every suite starts its own servers on ports of its own.
mkdir -p .artifacts
rm -f .artifacts/pytest_*.log
pids=()
names=()
# Starts a pytest in the background: beside NAME PYTEST-ARGUMENTS...
beside() {
    local name="$1"
    shift
    python3 -m pytest -p no:cacheprovider --durations=5 "$@" >".artifacts/pytest_$name.log" 2>&1 &
    pids+=($!)
    names+=("$name")
}
# Chromium flushes its socket pools when an address of any interface in its network namespace changes
# (ERR_NETWORK_CHANGED; STACK-NOTES.md), failing the page loads waiting for a connection, and the fault tests
# beside it add and delete veth addresses in the root namespace. So as root the browser suite (its servers,
# chromedriver and Chromium) runs in a namespace of its own with only a loopback, which nothing changes.
BROWSER_NETNS=()
if [ "$(id -u)" -eq 0 ] && ip netns add "typewire-browser-$$" 2>/dev/null; then
    ip -n "typewire-browser-$$" link set lo up
    BROWSER_NETNS=(ip netns exec "typewire-browser-$$")
fi
trap 'kill "${pids[@]}" 2>/dev/null || true; if [ "${#BROWSER_NETNS[@]}" -gt 0 ]; then ip netns del "typewire-browser-$$" || true; fi' EXIT
step "python3 -m pytest, in two lanes: Tests/Browser, Tests/Abuse (requests no browser sends) and Tests/Integration one after another; Tests/Faults beside them"
(
    status=0
    for suite in Browser Abuse Integration; do
        printf '==> python3 -m pytest Tests/%s (at %d s)\n' "$suite" "$SECONDS"
        namespace=()
        if [ "$suite" = Browser ]; then namespace=("${BROWSER_NETNS[@]}"); fi
        "${namespace[@]}" python3 -m pytest -p no:cacheprovider --durations=5 "Tests/$suite" || status=1
    done
    exit "$status"
) >.artifacts/pytest_browser_abuse_integration.log 2>&1 &
pids+=($!)
names+=(browser_abuse_integration)
LONG_FAULTS=(
    Tests/Faults/test_client_mobile_link.py
    Tests/Faults/test_webhooks.py::test_a_receiver_down_for_a_minute_gets_every_event_once_after_dedupe
)
beside faults Tests/Faults "${LONG_FAULTS[@]/#/--deselect=}"
beside faults_mobile_link "${LONG_FAULTS[0]}"
beside faults_webhook_receiver_down "${LONG_FAULTS[1]}"
failed=()
for index in "${!pids[@]}"; do
    wait "${pids[$index]}" || failed+=("${names[$index]}")
done
for name in "${names[@]}"; do
    step "the output of .artifacts/pytest_$name.log"
    cat ".artifacts/pytest_$name.log"
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "error: Python tests failed: ${failed[*]} (their output is above)" >&2
    exit 1
fi
step "done"
