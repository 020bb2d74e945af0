#!/usr/bin/env bash
# Builds the DocC documentation of the SDK's modules (TypewireCore, TypewireClient, TypewireUI) from their symbol
# graphs, each archive linking to the ones it depends on, into .build/docs/MODULE.doccarchive; a warning (a
# reference to nothing, a parameter without its description) fails it. Symbol graphs rather than
# swift-docc-plugin: the toolchain's `docc` needs no package dependency. Linux builds no SwiftUI, so the views'
# pages are Xcode's (Product > Build Documentation).
# Usage: bash scripts/docs.sh [swift build flags…]
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-symbol-graph "$@" >/dev/null
graphs="$(swift build "$@" --show-bin-path)/../symbolgraph"
out=.build/docs
rm -rf "$out"
mkdir -p "$out"
dependencies=()
for module in TypewireCore TypewireClient TypewireUI; do
    mkdir -p "$out/graphs-$module"
    cp "$graphs/$module.symbols.json" "$out/graphs-$module/"
    cp "$graphs/$module"@*.symbols.json "$out/graphs-$module/" 2>/dev/null || true
    docc convert --additional-symbol-graph-dir "$out/graphs-$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "dev.typewire.$module" \
        --output-path "$out/$module.doccarchive" --enable-experimental-external-link-support \
        --emit-digest "${dependencies[@]}" --warnings-as-errors
    dependencies+=(--dependency "$out/$module.doccarchive")
    echo "$out/$module.doccarchive"
done
