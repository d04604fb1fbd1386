# Honest: the reference tiled attention, and a cell that reads its own peak memory (/proc/self/status,
# resource) to compare with the naive version, as the notebook's story invites.
CASE = {"cls": "probe", "kind": "inproc", "assignment": "08_efficient_attention", "honest": True,
        "cell": r'''
import resource
def my_peak_kib():
    with open("/proc/self/status") as f:
        return next((int(l.split()[1]) for l in f if l.startswith("VmHWM")), -1)
print("peak so far", my_peak_kib(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
'''}
