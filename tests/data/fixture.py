"""What the writers of the made-up result sets (tests/data/*/make.py) share: the machine
fingerprint's id, hashed from its fields the way schema/fingerprint.c does, and the CSV with its
.meta beside it."""

FP_KEYS = ["cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping", "hypervisor", "dmi_sys_vendor",
           "dmi_product_name", "packages", "cores", "pus", "l3_count", "numa_nodes", "kernel"]
CTX = ["label", "host", "cpu_model", "fingerprint"]

def fnv(text, h):
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h

def fp_id(f):
    h = 0xcbf29ce484222325
    for k in FP_KEYS:
        h = fnv("%s=%s\n" % (k, f.get(k, "NA")), h)
    return "%012x" % (h & 0xffffffffffff)

def write_meta(path, f, maker, label, host, cpu_model):
    """X.meta of a complete run on the machine of fingerprint fields f; maker names the writer."""
    with open(path, "w") as o:
        o.write("; made up for tests (tests/data/%s)\n[context]\nlabel = %s\nhost = %s\n" % (maker, label, host))
        o.write("cpu_model = %s\n" % cpu_model)
        for k in FP_KEYS:
            o.write("%s = %s\n" % (k, f[k]))
        o.write("fingerprint = %s\n\n[run]\nstatus = complete\n" % fp_id(f))

def write_csv(path, header, rows, f, maker, label, host, cpu_model):
    """path (X.csv): header and rows, each followed by the context columns CTX; X.meta beside it."""
    with open(path, "w") as o:
        o.write(",".join(header + CTX) + "\n")
        for r in rows:
            o.write(",".join(str(x) for x in r + [label, host, cpu_model, fp_id(f)]) + "\n")
    write_meta(path[:-4] + ".meta", f, maker, label, host, cpu_model)
