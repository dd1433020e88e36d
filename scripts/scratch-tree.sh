# Sourced by scripts/scratch-*.sh: a scratch copy of the tree in $tmp (removed on exit), with the
# native build's objects and dependency files (not the sanitizer, cross or zoo trees), so that
# only what the script adds is compiled. A folder the build has not made yet (build/tests after a
# plain `make`) is skipped: the copy then builds it.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tmp=$(mktemp -d)
mkdir -p "$tmp/build"
trap 'rm -rf "$tmp"' EXIT
git ls-files -z | xargs -0 cp -a --parents -t "$tmp"
if [ -d build ]; then
  (cd build && find lib stats schema harness layouts benches analysis runner import cli gen tests -maxdepth 3 \
    \( -name '*.o' -o -name '*.d' -o -name '*.h' \) -print0 2>/dev/null || true) |
    (cd build && xargs -0 -r cp -a --parents -t "$tmp/build")
fi
