#!/usr/bin/env bash
# Builds the server's release: dist/typewire-VERSION-linux-ARCH.tar.gz, a folder of
#   bin/typewire          the release build, the Swift runtime and Foundation linked in (--static-swift-stdlib),
#                         stripped: it runs on a Linux host without Swift
#   share/typewire/Public the web demo's files (`typewire serve --demo --public share/typewire/Public`)
#   typewire.service      a systemd unit (docs/INTEGRATION.md, "Deploy")
#   README                what is in it, what the host needs, and how to start it
# VERSION is TypewireVersion.current (CHANGELOG.md's newest release). The script fails if the binary needs a
# shared library beyond what a minimal Debian carries (libc, libm, libgcc_s, libstdc++, zlib, the loader), naming it.
#   bash scripts/release.sh [--scratch-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(--scratch-path .build)
if [ "${1:-}" = "--scratch-path" ]; then
    scratch=(--scratch-path "$2")
fi

version="$(sed -n 's/^ *public static let current = "\(.*\)"$/\1/p' Sources/TypewireCore/TypewireVersion.swift)"
[ -n "$version" ] || { echo "error: no version in Sources/TypewireCore/TypewireVersion.swift" >&2; exit 1; }
arch="$(uname -m)"
name="typewire-$version-linux-$arch"

swift build "${scratch[@]}" -c release --product typewire --static-swift-stdlib
binary="$(swift build "${scratch[@]}" -c release --show-bin-path)/typewire"

# What the binary needs from the host: only what every Linux has (zlib, for the HTTP compression of swift-nio-extras,
# is in every Debian: dpkg needs it). A library outside this list (libcurl from FoundationNetworking, libxml2 from
# FoundationXML) means a dependency dragged it in: name it and stop.
allowed='^(linux-vdso\.so|libc\.so|libm\.so|libgcc_s\.so|libstdc\+\+\.so|libz\.so|libdl\.so|libpthread\.so|librt\.so|libutil\.so|ld-linux[-a-z0-9_.]*\.so)'
needed="$(ldd "$binary" | awk '{print $1}' | sed 's|.*/||')"
unexpected="$(grep -Ev "$allowed" <<<"$needed" || true)"
if [ -n "$unexpected" ]; then
    echo "error: $binary needs libraries a minimal host lacks: $(tr '\n' ' ' <<<"$unexpected")" >&2
    echo "(ldd:)" >&2
    ldd "$binary" >&2
    exit 1
fi

stage="dist/$name"
rm -rf "$stage" "dist/$name.tar.gz"
mkdir -p "$stage/bin" "$stage/share/typewire"
cp "$binary" "$stage/bin/typewire"
strip "$stage/bin/typewire"
cp -R Public "$stage/share/typewire/Public"
"$stage/bin/typewire" --version | grep -qx "$version" || {
    echo "error: the built binary says '$("$stage/bin/typewire" --version)', not $version" >&2
    exit 1
}

cat >"$stage/typewire.service" <<'UNIT'
# /etc/systemd/system/typewire.service: docs/INTEGRATION.md ("Deploy") says what to put in /etc/typewire/env
# (TYPEWIRE_JWT_SECRET or TYPEWIRE_JWKS, TYPEWIRE_API_KEY, ...; every variable: docs/CONFIGURATION.md).
[Unit]
Description=Typewire (typing indicators and presence)
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=/etc/typewire/env
ExecStart=/usr/local/bin/typewire serve --host 127.0.0.1 --port 8080 --sqlite /var/lib/typewire/typewire.sqlite
StateDirectory=typewire
DynamicUser=yes
Restart=on-failure
# Each socket is a file: the default of 1 024 would cap the users online.
LimitNOFILE=65536
# SIGTERM closes every socket with 1001 (clients reconnect at once) and waits up to the close timeout.
TimeoutStopSec=15

[Install]
WantedBy=multi-user.target
UNIT

cat >"$stage/README" <<README
Typewire $version for Linux ($arch): real-time typing indicators, presence and bot activity for chat apps.

bin/typewire            the server and its tools (typewire --help); the Swift runtime is linked in
share/typewire/Public   the web demo's files
typewire.service        a systemd unit

The host needs nothing but glibc, libstdc++, libgcc_s and zlib (every Debian has them): ldd bin/typewire lists them.

Try it:   bin/typewire serve --demo --public share/typewire/Public   (then http://127.0.0.1:8080/)
Install:  install -m 755 bin/typewire /usr/local/bin/typewire
          install -m 644 typewire.service /etc/systemd/system/typewire.service
          put TYPEWIRE_JWT_SECRET=... (or TYPEWIRE_JWKS=...) in /etc/typewire/env (mode 600), then
          systemctl enable --now typewire
The settings: docs/CONFIGURATION.md; deployment behind a proxy and with an identity provider:
docs/INTEGRATION.md, in the source at the tag v$version.
README

tar -C dist -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1)); the binary needs: $(tr '\n' ' ' <<<"$needed")"
