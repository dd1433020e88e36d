#!/usr/bin/env bash
# Print the hot loops of every bench as compiled (functions named *_batch), one per atomics flavour, so a
# reader can check that writers hold their RMW (x86: lock-prefixed; aarch64: ldsetal for --atomics lse,
# an ldaxr/stlxr loop for llsc) and readers only plain loads. Usage: [OBJDUMP=...] disasm.sh BINARY
set -euo pipefail
bin=${1:-./c2cbench}
od=${OBJDUMP:-objdump}
$od -d --no-show-raw-insn "$bin" | awk '
  /^[0-9a-f]+ <[A-Za-z0-9_]+_batch>:$/ { on = 1; print ""; print; next }
  on && /^$/ { on = 0; next }
  on { print }'
echo
for f in $($od -t "$bin" | awk '$NF ~ /_batch$/ { print $NF }' | sort -u); do
  d=$($od -d --no-show-raw-insn "$bin" --disassemble="$f")
  printf '%-28s lock:%s ldsetal:%s ldaxr/stlxr:%s/%s call/clock/syscall:%s\n' "$f" \
    "$(grep -c 'lock ' <<<"$d" || true)" "$(grep -c 'ldsetal' <<<"$d" || true)" \
    "$(grep -c 'ldaxr' <<<"$d" || true)" "$(grep -c 'stlxr' <<<"$d" || true)" \
    "$(grep -cE '\s(call|bl|blr|rdtsc|syscall|svc)\s' <<<"$d" || true)"
done
