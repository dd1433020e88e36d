# The whole cmocka suite inside the guest (x86: the host's userland over 9p, its build of the tests):
# no test may assume the host's topology. suite.log holds its output with each binary's seconds and
# ends with the suite's "tests: N passed, N failed"; suite.rc is its status.
# ZOO_SUITE_TESTS (boot.sh) names a few binaries instead of all.
( cd "$R$proj" || exit 1
  set --
  for t in build/tests/test_*; do   # the test binaries, not make's .d files beside them
    case $t in *.*) continue ;; esac
    [ -x "$t" ] && set -- "$@" "$t"
  done
  [ -n "${ZOO_SUITE_TESTS:-}" ] &&
    set -- $(echo "$ZOO_SUITE_TESTS" | sed 's/,/ /g; s/[a-z0-9_]*/build\/tests\/&/g')
  SLURM_LOCAL_WAIT=300 C2C_TEST_JOBS=${C2C_TEST_JOBS:-1} C2C_BIN=$proj/c2cbench C2C_TEST_TIMES=1 bash scripts/run-tests.sh "$@" ) \
  < /dev/null > "$OUT/suite.log" 2>&1
echo $? > "$OUT/suite.rc"
