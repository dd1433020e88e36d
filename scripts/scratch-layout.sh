#!/usr/bin/env bash
# A new layout is one file: a scratch copy of the tree gains layouts/scratch.c and nothing else (no
# registry, Makefile or test edit), builds, passes the layout and command-line tests, and lists,
# orders and runs the layout. CI runs it after `make test` (the copy reuses build/: only the new
# file is compiled).
set -euo pipefail
. "$(dirname "$0")/scratch-tree.sh"
cat > "$tmp/layouts/scratch.c" <<'EOF'
/* A scratch layout: the pointer 96 bytes from the work, between aligned and padded. */
#include "layouts/layout.h"

struct vmalloc_scratch {
	struct work_struct drain_vmap_work; /* +0 */
	char gap[64];
	struct vmap_node *vmap_nodes; /* +96 */
} __attribute__((aligned(128)));

static const struct layout scratch = {
	"scratch", "pointer 96 bytes from the work (a test's)",
	sizeof(struct vmalloc_scratch), _Alignof(struct vmalloc_scratch),
	offsetof(struct vmalloc_scratch, drain_vmap_work),
	offsetof(struct vmalloc_scratch, vmap_nodes), NULL, NULL,
};
LAYOUT_REGISTER(scratch)
EOF
make -C "$tmp" -s --no-print-directory c2cbench build/tests/test_layouts build/tests/test_cli
C2C_BIN="$tmp/c2cbench" "$tmp/build/tests/test_layouts"
(cd "$tmp" && C2C_BIN="$tmp/c2cbench" build/tests/test_cli)
"$tmp/c2cbench" list | grep 'scratch' >/dev/null || { echo "scratch-layout: list does not name it" >&2; exit 1; }
said=$("$tmp/c2cbench" run pending-bit --layout bogus --dry-run 2>&1 || true)
case "$said" in *"accepted: shared,aligned,scratch,padded,section") ;;
  *) echo "scratch-layout: not in the registry's order (by distance): $said" >&2; exit 1 ;; esac
plan=$("$tmp/c2cbench" run pending-bit --layout shared,scratch --topology "synthetic:core:2 pu:1" \
	--dry-run 2>&1) || { echo "scratch-layout: the dry run failed: $plan" >&2; exit 1; }
echo "scratch-layout: a new layout built, listed and planned with no other edit"
