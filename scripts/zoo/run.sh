#!/usr/bin/env bash
# make test-system: boot every guest of scripts/zoo/guests.tsv (or those named in ZOO_GUESTS, comma
# separated), run its checks inside, then judge each guest's results with build/tests/zoo_check.
# Results and console logs stay in build/zoo/NAME/; the downloads in build/zoo/cache/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proj=$(cd "$here/../.." && pwd)
check=${ZOO_CHECK_BIN:-$proj/build/tests/zoo_check}
bash "$here/fetch.sh" "$proj/build/zoo/cache" ||
  { echo "zoo: failed: download (scripts/zoo/fetch.sh; see above)"; exit 1; }
guests=$(awk -F'\t' '!/^#/ && NF >= 6 {print $1}' "$here/guests.tsv")
[ -n "${ZOO_GUESTS:-}" ] && guests=${ZOO_GUESTS//,/ }
failed=() start=$(date +%s)
for g in $guests; do
  t0=$(date +%s)
  echo "zoo: booting $g"
  log=$proj/build/zoo/$g/console.log
  if ! bash "$here/boot.sh" "$g"; then
    # A guest whose kernel never reached our init (a boot that TCG on a busy host was too slow
    # for) boots once more, and says so; a guest whose checks ran and failed does not.
    bad=1
    if ! grep -q '^=== begin' "$log" && ! grep -q '^=== zoo: setup' "$log"; then
      echo "zoo: $g never reached init; booting it once more"
      cp "$log" "$proj/build/zoo/$g-boot1.log"
      bash "$here/boot.sh" "$g" && bad=0
    fi
    # the step that failed, truthfully: the kernel's boot, our init's setup, or the checks
    if [ $bad = 1 ]; then
      if grep -q '^=== zoo: setup' "$log"; then
        failed+=("$g (setup: $(grep -m1 '^=== zoo: setup' "$log" | sed 's/^=== zoo: setup: //'))")
      elif ! grep -q '^=== begin' "$log"; then
        failed+=("$g (boot: the kernel never reached the zoo's init; see $log)")
      else
        failed+=("$g (check: the guest's checks ended $(grep -m1 -o '^=== end rc=[0-9]*' "$log" |
          sed 's/^=== end //' || echo unfinished); see $log)")
      fi
      continue
    fi
  fi
  if ! "$check" "$proj/build/zoo/$g"; then failed+=("$g (check: zoo_check)"); fi
  echo "zoo: $g took $(( $(date +%s) - t0 )) s"
done
# The main job across machines: the guests' quick runs and one on this host, compared and reported.
fleet=()   # the quick runs of the guests booted now, never a folder an earlier run left
for g in $guests; do
  for d in "$proj/build/zoo/$g"/quick/*-quick; do [ -d "$d" ] && fleet+=("$d"); done
done
if [ ${#fleet[@]} -ge 2 ]; then
  rm -rf "$proj/build/zoo/host"
  mkdir -p "$proj/build/zoo/host"
  echo "zoo: the quick preset on this host, then compare and report over ${#fleet[@]} guests and it"
  # shellcheck disable=SC2046 # the options, one word each
  if "$proj/c2cbench" preset quick --results "$proj/build/zoo/host" --max-attempts 1 \
       $(cat "$here/lenient.txt") > "$proj/build/zoo/host/console.log" 2>&1; then
    fleet+=("$proj"/build/zoo/host/*-quick)
    rm -rf "$proj/build/zoo/fleet-report"   # the report of this run only
    "${check%/zoo_check}/zoo_fleet" "$proj/build/zoo/fleet-report" "${fleet[@]}" || failed+=("fleet")
  else
    failed+=("host quick (see build/zoo/host/console.log)")
  fi
fi
echo "zoo: $(( $(date +%s) - start )) s in all; results in build/zoo/"
if [ ${#failed[@]} -gt 0 ]; then echo "zoo: failed: ${failed[*]}"; exit 1; fi
