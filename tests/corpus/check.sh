#!/bin/sh
# Checks the corpus against clang-22: every valid/*.cl must pass -fsyntax-only
# with no errors, every invalid/*.cl must fail. Run from the repository root or anywhere.
cd "$(dirname "$0")" || exit 2
CLANG=${CLANG:-clang-22}
FLAGS="-x cl -cl-std=CL2.0 -Xclang -finclude-default-header -fsyntax-only -I include"
fail=0
for f in valid/*.cl; do
    out=$($CLANG $FLAGS "$f" 2>&1); rc=$?
    if [ $rc -ne 0 ] || echo "$out" | grep -q "error:"; then
        echo "FAIL (valid rejected): $f"; echo "$out" | head -20; fail=1
    fi
done
for f in invalid/*.cl; do
    if $CLANG $FLAGS "$f" >/dev/null 2>&1; then
        echo "FAIL (invalid accepted): $f"; fail=1
    fi
done
[ $fail -eq 0 ] && echo "ok: $(ls valid/*.cl | wc -l) valid, $(ls invalid/*.cl | wc -l) invalid"
exit $fail
