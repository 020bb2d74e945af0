#!/usr/bin/env bash
# Runs every test of the repository, in order, and stops at the first failure:
#   1. builds everything (so a broken executable fails too),
#   2. the Swift tests,
#   3. the web demo's JavaScript tests (node's built-in runner),
#   4. the browser tests (pytest + selenium + headless Chromium) against the built server.
# Needs: Swift 6.2+, node 18+, python3 with pytest and selenium, chromium and chromedriver
# (`bash .ci/run` installs the last three on Debian, then runs this script).
# Browser screenshots and the server's log go to .artifacts/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "swift build --build-tests"
swift build --build-tests
step "swift test"
swift test
step "node --test Tests/JavaScript/"
node --test Tests/JavaScript/
step "python3 -m pytest Tests/Browser"
python3 -m pytest Tests/Browser
