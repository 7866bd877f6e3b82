"""Reading OpenCSD's trc_pkt_lister: running it on a snapshot, and the packet
fields its PTM and ETMv3 lines spell alike (shared by dump_oracle.py and
etm3_oracle.py)."""
import subprocess


def lister_lines(snapshot, trace_id=None):
    """The lines of `trc_pkt_lister -decode` on snapshot (one trace ID, a
    string such as "0x13", or all)."""
    cmd = ["trc_pkt_lister", "-ss_dir", snapshot, "-decode", "-logstdout"]
    if trace_id is not None:
        cmd += ["-id", trace_id]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False).stdout
    return out.decode("latin-1").splitlines()


def common_field(p, f, isa_map, reason_map):
    """Field f of a packet line into dict p; False if it is not one of the
    fields both protocols share."""
    if f.startswith("Addr="):
        p["address"] = int(f[5:].split()[0], 16)
    elif f.startswith("ISA="):
        p["isa"] = isa_map.get(f[4:], f[4:])
    elif f in ("S", "NS"):
        p["ns"] = f == "NS"
    elif f == "Hyp":
        p["hyp"] = True
    elif f.startswith("Cycles="):
        p["cycles"] = int(f[7:])
    elif f.startswith("TS="):
        p["timestamp"] = int(f[3:].split()[0], 16)
    elif f.startswith("CtxtID="):
        p["context_id"] = int(f[7:], 16)
    elif f.startswith("(") and f.endswith(")"):
        p["reason"] = reason_map.get(f[1:-1], f[1:-1])
    else:
        return False
    return True
