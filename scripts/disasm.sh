#!/usr/bin/env bash
# Print the hot loops of every bench as compiled (functions named *_batch), so a reader can check
# that writers hold a lock-prefixed RMW and readers only plain loads. Usage: disasm.sh BINARY
set -euo pipefail
bin=${1:-./c2cbench}
objdump -d --no-show-raw-insn -M att "$bin" | awk '
  /^[0-9a-f]+ <[A-Za-z0-9_]+_batch>:$/ { on = 1; print ""; print; next }
  on && /^$/ { on = 0; next }
  on { print }'
echo
for f in $(nm "$bin" | awk '$3 ~ /_batch$/ { print $3 }' | sort -u); do
  n=$(objdump -d --no-show-raw-insn "$bin" --disassemble="$f" | grep -c 'lock ' || true)
  c=$(objdump -d --no-show-raw-insn "$bin" --disassemble="$f" | grep -cE '\s(call|rdtsc|syscall)' || true)
  printf '%-28s %s lock-prefixed instruction(s), %s call/clock/syscall instruction(s)\n' "$f" "$n" "$c"
done
