# Writes the hand-made hwloc v2 XMLs of tests/data/topo/ (run: python3 make.py . in that folder).
import sys
gp = [0]
def bm(s):
    if not s: return "0x0"
    v = 0
    for i in s: v |= 1 << i
    words = []
    while v:
        words.append(v & 0xffffffff); v >>= 32
    return ",".join("0x%08x" % w for w in reversed(words))
class O:
    def __init__(s, type, os=None, kids=(), mem=(), **a):
        s.type, s.os, s.kids, s.mem, s.a = type, os, list(kids), list(mem), a
    def cpus(s):
        if s.type == "PU": return {s.os}
        r = set()
        for k in s.kids: r |= k.cpus()
        return r
    def nodes_below(s):
        r = set(m.os for m in s.mem)
        for k in s.kids: r |= k.nodes_below()
        return r
def emit(o, out, ind, nodeset_of, root_extra=""):
    gp[0] += 1
    cs = o.cpus() if o.type != "NUMANode" else o.a.pop("_cpus")
    ns = nodeset_of(o)
    attrs = 'type="%s"' % o.type
    if o.os is not None: attrs += ' os_index="%d"' % o.os
    attrs += ' cpuset="%s" complete_cpuset="%s"' % (bm(cs), bm(cs))
    if root_extra: attrs += root_extra
    attrs += ' nodeset="%s" complete_nodeset="%s"' % (bm(ns), bm(ns))
    if root_extra: attrs += ' allowed_nodeset="%s"' % ALLOWED_N
    attrs += ' gp_index="%d"' % gp[0]
    for k, v in o.a.items():
        if not k.startswith("_") and k != "info": attrs += ' %s="%s"' % (k, v)
    infos = o.a.get("info", [])
    ch = o.mem + o.kids
    if not ch and not infos:
        out.append("%s<object %s/>" % (ind, attrs)); return
    out.append("%s<object %s>" % (ind, attrs))
    for n, v in infos: out.append('%s  <info name="%s" value="%s"/>' % (ind, n, v))
    for m in o.mem:
        m.a["_cpus"] = cs
        emit(m, out, ind + "  ", lambda x: {x.os})
    for k in o.kids: emit(k, out, ind + "  ", nodeset_of)
    out.append("%s</object>" % ind)
def write(path, root, allowed_cpus, allowed_nodes, cpukinds=()):
    global ALLOWED_N
    gp[0] = 0
    ALLOWED_N = bm(allowed_nodes)
    # nodeset of an object: the nodes attached at or below it, or the nearest ancestor's
    parent = {}
    def walk(o, p):
        parent[id(o)] = p
        for k in o.kids: walk(k, o)
    walk(root, None)
    objs = {}
    def reg(o):
        objs[id(o)] = o
        for k in o.kids: reg(k)
    reg(root)
    def nodeset_of(o):
        ns = o.nodes_below()
        p = parent[id(o)]
        while not ns and p is not None:
            ns = set(m.os for m in p.mem); p = parent[id(p)]
        return ns
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<!DOCTYPE topology SYSTEM "hwloc2.dtd">',
           '<topology version="2.0">']
    emit(root, out, "  ", nodeset_of, ' allowed_cpuset="%s"' % bm(allowed_cpus))
    for cs, eff, name in cpukinds:
        out.append('  <cpukind cpuset="%s" forced_efficiency="%d">' % (bm(cs), eff))
        out.append('    <info name="CoreType" value="%s"/>' % name)
        out.append('  </cpukind>')
    out.append('</topology>')
    open(path, "w").write("\n".join(out) + "\n")
def L(d, size, kids, **a): return O("L%dCache" % d, None, kids, cache_size=size, depth=d,
                                     cache_linesize=64, cache_associativity=8, cache_type=0, **a)
def core(os, pus): return O("Core", os, [O("PU", p) for p in pus])
def node(os, mem): return O("NUMANode", os, local_memory=mem)
GB = 1 << 30
d = sys.argv[1]
amd = [("CPUVendor", "AuthenticAMD"), ("CPUFamilyNumber", "25"), ("CPUModelNumber", "1")]
# 1. cgroup-restricted: 4 packages x (node, 2 L3 x 2 cores), one PU per core; the cgroup allows the
#    PUs of package 1 (4-7) and memory on nodes 2 and 3 only.
pk = []
for p in range(4):
    l3 = [L(3, 16 << 20, [L(2, 512 << 10, [core(p * 4 + c * 2 + k, [p * 4 + c * 2 + k])]) for k in range(2)])
          for c in range(2)]
    pk.append(O("Package", p, l3, [node(p, 4 * GB)], info=amd))
write(d + "/cgroup-4pkg-amd.xml", O("Machine", 0, pk, info=[("Backend", "Linux")]), range(4, 8), [2, 3])
# 2. memory-only node and a CPU node without memory: node 0 covers the 8 PUs but holds nothing,
#    node 5 (memory only, no CPUs) holds the memory.
intel = [("CPUVendor", "GenuineIntel"), ("CPUFamilyNumber", "6"), ("CPUModelNumber", "143")]
cores = [L(2, 2 << 20, [core(c, [c, c + 4])]) for c in range(4)]
root = O("Machine", 0, [O("Package", 0, [L(3, 32 << 20, cores)], [node(0, 0)], info=intel)], [node(5, 93 * GB)])
write(d + "/memonly-node.xml", root, range(8), [0, 5])
# 3. hybrid: 2 P-cores with 2 PUs (0-3) and 4 E-cores (4-7) sharing one L2, all under one L3
pc = [L(2, 2 << 20, [core(c, [2 * c, 2 * c + 1])]) for c in range(2)]
ec = [L(2, 4 << 20, [core(2 + c, [4 + c]) for c in range(4)])]
arl = [("CPUVendor", "GenuineIntel"), ("CPUFamilyNumber", "6"), ("CPUModelNumber", "198")]
root = O("Machine", 0, [O("Package", 0, [L(3, 36 << 20, pc + ec)], [node(0, 32 * GB)], info=arl)])
write(d + "/hybrid-2kinds.xml", root, range(8), [0],
      [(range(4, 8), 0, "IntelAtom"), (range(0, 4), 1, "IntelCore")])
# 4. two PUs, no package, no core, no cache; the only node is node 1
root = O("Machine", 0, [O("PU", 0), O("PU", 1)], [node(1, 2 * GB)])
write(d + "/2pu-nocache.xml", root, range(2), [1])
# 5. PUs outside any package, sparse node numbers: package 0 (PUs 0-3, node 0, one L3), then
#    PUs 4-7 in a Group with no package (node 33), and a memory-only node 72
pkg = O("Package", 0, [L(3, 8 << 20, [core(c, [c]) for c in range(4)])], [node(0, 8 * GB)], info=intel)
grp = O("Group", 0, [L(2, 1 << 20, [core(4 + c, [4 + c]) for c in range(2 * k, 2 * k + 2)]) for k in range(2)],
        [node(33, 8 * GB)])
root = O("Machine", 0, [pkg, grp], [node(72, 16 * GB)])
write(d + "/nopkg-sparse-nodes.xml", root, range(8), [0, 33, 72])
