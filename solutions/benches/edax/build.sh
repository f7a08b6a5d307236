#!/usr/bin/env bash
# Builds the shared library `benches/othello_moves.rs --edax LIB` times Edax's flip from:
# sweep.c (this folder) with Edax's src/flip_avx_acepck.c included from a checkout of
# https://github.com/abulmo/edax-reversi (GPL-3.0, not part of this repository).
#
#   solutions/benches/edax/build.sh EDAX_CHECKOUT [OUT.so]     (default OUT: target/edax-sweep.so)
#
# Flags: Edax's own release flags for gcc (src/Makefile: -Ofast -fomit-frame-pointer -DNDEBUG,
# -march=x86-64-v3 for its AVX2 build), as a shared library; -fwhole-program is what the one
# translation unit gives (the inlined sweep sees Edax's flip), and hidden visibility keeps the
# called sweep's call direct (no PLT).
set -euo pipefail
edax=${1:?usage: build.sh EDAX_CHECKOUT [OUT.so]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../../../target/edax-sweep.so}
[ -f "$edax/src/flip_avx_acepck.c" ] || { echo "build.sh: no $edax/src/flip_avx_acepck.c" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
${CC:-gcc} -std=c17 -Ofast -fomit-frame-pointer -DNDEBUG -march=x86-64-v3 -fPIC -shared \
  -fvisibility=hidden -I "$edax/src" "$here/sweep.c" -o "$out"
echo "$out"
