#!/usr/bin/env bash
# Proves a release on a host without Swift: unpacks dist/typewire-VERSION-linux-ARCH.tar.gz (scripts/release.sh)
# into a minimal Debian (`debootstrap --variant=minbase bookworm`, kept in .build/release-root so that a second
# run downloads nothing) and runs it there under chroot as a user without privileges (nobody, as the Dockerfile's
# non-root user), with /proc mounted as on any host (Swift's runtime reads a process's arguments there):
#   - `typewire --version` says the tarball's version;
#   - `typewire serve --demo` answers /healthz and serves the demo's page;
#   - `typewire serve` on SQLite with a key set refuses a token the set did not sign (401).
# Prints the tarball's size and the time from the start to the first /healthz answer.
# Needs root, debootstrap, curl, python3 with `cryptography` (for the key set), and Debian's mirror once.
#   bash scripts/release_check.sh [TARBALL]
set -euo pipefail
cd "$(dirname "$0")/.."
tarball="${1:-$(ls -t dist/typewire-*-linux-*.tar.gz 2>/dev/null | head -n 1)}"
[ -f "$tarball" ] || { echo "error: no tarball: run bash scripts/release.sh first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "error: chroot needs root" >&2; exit 1; }
version="$(basename "$tarball" | sed 's/^typewire-\(.*\)-linux-.*\.tar\.gz$/\1/')"

root="$PWD/.build/release-root"
if [ ! -x "$root/bin/sh" ]; then
    rm -rf "$root"
    debootstrap --variant=minbase bookworm "$root" >/dev/null
fi
rm -rf "$root/opt/typewire" "$root/var/typewire"
mkdir -p "$root/opt/typewire" "$root/var/typewire"
tar -xzf "$tarball" -C "$root/opt/typewire" --strip-components=1
chown 65534:65534 "$root/var/typewire"  # the only place it writes: its SQLite files
if ! mountpoint -q "$root/proc"; then mount -t proc proc "$root/proc"; fi
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
in_root() { chroot --userspec=65534:65534 "$root" "$@"; }

said="$(in_root /opt/typewire/bin/typewire --version)"
[ "$said" = "$version" ] || { echo "error: --version said '$said', not $version" >&2; exit 1; }
echo "--version: $said"

# Starts `typewire serve ARGS...` in the root on a port of its own; sets $port once /healthz answers.
serve() {
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    local started
    started="$(date +%s%N)"
    in_root /opt/typewire/bin/typewire serve --port "$port" "$@" >"$root/var/typewire/serve.log" 2>&1 &
    server=$!
    for _ in $(seq 1 300); do
        if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
            echo "first /healthz after $(( ($(date +%s%N) - started) / 1000000 )) ms"
            return 0
        fi
        kill -0 "$server" 2>/dev/null || break
        sleep 0.1
    done
    cat "$root/var/typewire/serve.log" >&2
    echo "error: typewire serve $* did not answer /healthz" >&2
    exit 1
}
stop() {
    kill "$server"
    wait "$server" || true
    server=""
}

serve --demo --public /opt/typewire/share/typewire/Public --sqlite /var/typewire/demo.sqlite
curl -fsS "http://127.0.0.1:$port/" | grep -q "<html" || { echo "error: the demo's page is not served" >&2; exit 1; }
echo "serve --demo: /healthz and the page answered"
stop

# A key set of one EC key; a token signed with a secret it does not hold is refused.
python3 - "$root/var/typewire/keys.json" <<'PYTHON'
import base64, json, sys
from cryptography.hazmat.primitives.asymmetric import ec
numbers = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
b64 = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()
json.dump({"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "use": "sig", "alg": "ES256",
                     "x": b64(numbers.x), "y": b64(numbers.y)}]}, open(sys.argv[1], "w"))
PYTHON
stranger="$(in_root /opt/typewire/bin/typewire token --user mallory --name Mallory --jwt-secret "not-the-key-sets-key-0123456789abcdef")"
serve --jwks /var/typewire/keys.json --sqlite /var/typewire/keys.sqlite
status="$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $stranger" \
    "http://127.0.0.1:$port/v1/conversations")"
[ "$status" = 401 ] || { echo "error: a token the key set did not sign got $status, not 401" >&2; exit 1; }
echo "serve --jwks: a token the key set did not sign is refused (401)"
stop

echo "$tarball: $(du -h "$tarball" | cut -f1), runs on Debian bookworm minbase without Swift"
