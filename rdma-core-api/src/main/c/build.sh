#!/usr/bin/env bash
# Builds libdisni.so (DiSNI 2.1's native contract plus ibex's own JNI class) into $1 (default
# target/native). Called by Maven in the compile phase; skips with one line when the verbs headers are
# missing, so the pure-Java build works anywhere.
set -euo pipefail

src="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$src/../../../target/native}"

for header in infiniband/verbs.h rdma/rdma_cma.h; do
    if ! echo "#include <$header>" | ${CC:-gcc} -E -x c - >/dev/null 2>&1; then
        echo "ibex native: skipped, <$header> not found (apt-get install libibverbs-dev librdmacm-dev)"
        exit 0
    fi
done

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
mkdir -p "$out"
# -Werror keeps the C honest; the layout checks in DiSNI's Java need the exact rdma-core structs.
${CC:-gcc} -shared -fPIC -O2 -std=gnu11 -Wall -Wextra -Werror -fvisibility=hidden \
    -I"$java_home/include" -I"$java_home/include/linux" \
    -o "$out/libdisni.so" "$src"/*.c -libverbs -lrdmacm
echo "ibex native: built $out/libdisni.so"
