#!/bin/sh
# Manual check (needs clang-22, not run by the test suite): `def.cl` and a
# caller compiled by clang-22 and by clc in all four pairs, linked, run;
# every pair must print the same values. Usage: with_clang.sh CLC [OPT]
set -e
CLC=${1:?path to clc}; OPT=${2:--O2}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d)
cd "$DIR"
# The kernel's body as a plain function both compilers export.
sed 's/^kernel void calls(global long \*out) {$/void drive(int n, global long *out) {/; /^    int n = get_global_id(0);$/d' "$HERE/caller.cl" > drive.cl
cat > main.c <<'C'
#include <stdio.h>
void drive(int n, long *o);
static long o[32 * 24];
int main(void) { for (int n = 0; n < 32; n++) { drive(n, o); for (int k = 0; k < 24; k++) printf("%ld ", o[24 * n + k]); printf("\n"); } return 0; }
C
CLANG="clang-22 -cl-std=CL2.0 -target x86_64-unknown-linux-gnu -fPIC -Wno-everything $OPT -I$HERE"
for src in "$HERE/def.cl" drive.cl; do
    f=$(basename "$src" .cl)
    $CLANG -c "$src" -o ${f}_clang.o
    "$CLC" $OPT -c -I"$HERE" "$src" -o ${f}_clc.o
done
for d in clang clc; do for c in clang clc; do
    mkdir -p $d-$c
    cc -shared def_$d.o -o $d-$c/libdef.so
    cc main.c drive_$c.o -o $d-$c/run -L$d-$c -ldef -Wl,-rpath,"$DIR/$d-$c"
    ./$d-$c/run > $d-$c.txt
    echo "definitions by $d, calls by $c: $(md5sum < $d-$c.txt)"
done; done
cmp clang-clang.txt clc-clc.txt && cmp clang-clang.txt clang-clc.txt && cmp clang-clang.txt clc-clang.txt && echo "all pairs agree"
rm -rf "$DIR"
