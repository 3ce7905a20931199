#!/bin/bash
# Prints the path of a working VILLASnode binary (villas-node 1.2.0 with the patches of
# ../shared/third-party/villas-patches), the C peer that softroce/interop/villas.sh runs against ibex in the
# Soft-RoCE guest. Nothing of VILLAS enters the project: it is unpacked or built into a cache beside it.
#
# usage: softroce/villas-node.sh [--from-source]
#   1. a cached copy whose `villas-node -V` succeeds;
#   2. else the prebuilt copy (villas-node-1.2.0-patched-debian12-amd64.tar.gz) unpacked into the cache, if it
#      loads (its runtime packages are installed when missing);
#   3. else, or with --from-source (the reference), a cached build from source, or the build from the source
#      tarball plus the patches, as
#      the third-party README's recipe (18.5 minutes on 2 cores; its build packages are installed).
# environment: IBEX_THIRD_PARTY (default: shared/third-party beside the checkout), IBEX_VILLAS_CACHE (default
#   /var/cache/ibex-villas; outside the clone so later CI runs on the machine reuse it, and visible to the guest,
#   which sees the host's filesystem read-only). The cache entry is named after the sha256 of the tarballs and
#   patches, so a change of patches gets a new build.
# Only the binary's path goes to standard output; progress and what it cost go to standard error.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)
third_party=${IBEX_THIRD_PARTY:-$(dirname "$checkout")/shared/third-party}
readonly SOURCE=$third_party/villas-node-1.2.0.tar.gz PREBUILT=$third_party/villas-node-1.2.0-patched-debian12-amd64.tar.gz
readonly RUNTIME=(libconfig9 libfmt9 libibverbs1 libjansson4 libnl-3-200 libnl-route-3-200 librdmacm1 libspdlog1.10
    libssl3 libuuid1 ibverbs-providers)
readonly BUILD=(cmake g++ make pkg-config libspdlog-dev libfmt-dev nlohmann-json3-dev libjansson-dev libwebsockets-dev
    libcurl4-openssl-dev libssl-dev uuid-dev libconfig-dev libibverbs-dev librdmacm-dev)

log() { echo "villas-node.sh: $*" >&2; }
[ -r "$SOURCE" ] || { log "no $SOURCE (set IBEX_THIRD_PARTY)"; exit 1; }
from_source=0
[ "${1:-}" != --from-source ] || from_source=1

# Installs only what is missing, so a prepared machine never touches the network.
install_missing()
{
    local missing=() pkg sudo=
    for pkg in "$@"
    do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >&2
}

works() { [ -x "$1" ] && "$1" -V > /dev/null 2>&1; }

key=$(cat "$SOURCE" "$PREBUILT" "$third_party"/villas-patches/*.patch 2>/dev/null | sha256sum | cut -c1-16)
cache=${IBEX_VILLAS_CACHE:-/var/cache/ibex-villas}/$key
started=$(date +%s%N)
cost() { local ms=$((($(date +%s%N) - started) / 1000000)); log "$1 in $((ms / 1000)).$((ms % 1000 / 100)) s"; }
mkdir -p "$cache"
exec 9> "$cache/.lock"
flock 9     # concurrent runs share the cache

if [ $from_source = 0 ]; then
    if works "$cache/prebuilt/bin/villas-node"; then
        cost "cached prebuilt copy $cache/prebuilt"; echo "$cache/prebuilt/bin/villas-node"; exit 0
    fi
    if [ -r "$PREBUILT" ]; then
        install_missing "${RUNTIME[@]}"
        rm -rf "$cache/prebuilt" "$cache/prebuilt.tmp" && mkdir -p "$cache/prebuilt.tmp"
        tar -xzf "$PREBUILT" -C "$cache/prebuilt.tmp" --strip-components=1 && mv "$cache/prebuilt.tmp" "$cache/prebuilt"
        if works "$cache/prebuilt/bin/villas-node"; then
            cost "unpacked the prebuilt copy into $cache/prebuilt"; echo "$cache/prebuilt/bin/villas-node"; exit 0
        fi
        log "the prebuilt copy does not load here: building from source"
        "$cache/prebuilt/bin/villas-node" -V >&2 || true
    fi
fi

src=$cache/source
if works "$src/build/src/villas-node"; then
    cost "cached build $src"; echo "$src/build/src/villas-node"; exit 0
fi
install_missing "${BUILD[@]}" "${RUNTIME[@]}"
rm -rf "$src" && mkdir -p "$src"
tar -xzf "$SOURCE" -C "$src" --strip-components=1
for patch in "$third_party"/villas-patches/*.patch
do
    patch -s -p1 -d "$src" < "$patch" >&2
done
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DWITH_DEFAULTS=OFF -DWITH_SRC=ON -DWITH_HOOKS=ON \
    -DWITH_CONFIG=ON -DWITH_NODE_INFINIBAND=ON -DWITH_NODE_FILE=ON -DWITH_NODE_SIGNAL=ON \
    -DWITH_NODE_LOOPBACK=ON -DWITH_NODE_STATS=ON >&2
make -C "$src/build" -j"$(nproc)" >&2
works "$src/build/src/villas-node" || { log "the build from source does not run"; exit 1; }
cost "built from source into $src"
echo "$src/build/src/villas-node"
