#!/usr/bin/env bash
# Builds the native library (DiSNI 2.1's native contract plus ibex's own JNI class) as OUT/libdisni.so and
# copies it to JAR_DIR/META-INF/native/libibex-rdma-CLASSIFIER.so for the classifier jar; VERSION is embedded
# (IbexNative.projectVersion). Usage: build.sh OUT JAR_DIR CLASSIFIER VERSION. Called by Maven in the compile
# phase; skips with one line when the verbs headers are missing, so the pure-Java build works anywhere.
set -euo pipefail

src="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$src/../../../target/native}"
jar_dir="${2:-$src/../../../target/native-jar}"
classifier="${3:-linux-x86_64}"
version="${4:-unknown}"

for header in infiniband/verbs.h rdma/rdma_cma.h; do
    if ! echo "#include <$header>" | ${CC:-gcc} -E -x c - >/dev/null 2>&1; then
        echo "ibex native: skipped, <$header> not found (apt-get install libibverbs-dev librdmacm-dev)"
        exit 0
    fi
done

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
mkdir -p "$out" "$jar_dir/META-INF/native"
# -Werror keeps the C honest; the layout checks in DiSNI's Java need the exact rdma-core structs.
${CC:-gcc} -shared -fPIC -O2 -std=gnu11 -Wall -Wextra -Werror -fvisibility=hidden \
    -DIBEX_PROJECT_VERSION="\"$version\"" \
    -I"$java_home/include" -I"$java_home/include/linux" \
    -o "$out/libdisni.so" "$src"/*.c -libverbs -lrdmacm
cp "$out/libdisni.so" "$jar_dir/META-INF/native/libibex-rdma-$classifier.so"
echo "ibex native: built $out/libdisni.so ($version, $classifier)"
