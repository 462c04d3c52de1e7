"""Exercise 18's right answers, worked out apart from the program.

The accumulators, from reduce_ops.cuh's shape, laid out by ctypes as a C compiler lays out a struct:
int32 widens to a 64-bit integer for the sum; the variance keeps (count, mean, M2) in the widened
type, float for float16 and double for int32; argmax keeps the widened value (float for float16)
and a 64-bit index. The other two are read from the committed runs at N = 2^28 directly: the
float16 sum's tolerance over the float32 sum's in the course's H100 run of the lesson
(assets/results/h100-beyond.json, its runs of 18_operators_and_types), and the float16 variance's
vs_cub (CUB's time over ours) in the H200 run (assets/results/h200-ops.json)."""
import ctypes
import json
import os


def moments(field):
    class Moments(ctypes.Structure):
        _fields_ = [("count", field), ("mean", field), ("m2", field)]
    return ctypes.sizeof(Moments)


class ValueIndexFloat(ctypes.Structure):
    _fields_ = [("value", ctypes.c_float), ("index", ctypes.c_uint64)]


def run(root, name, op, dtype):
    with open(os.path.join(root, "assets/results", name)) as f:
        doc = json.load(f)
    found = [r for r in doc["runs"]
             if r.get("lesson", "18_operators_and_types") == "18_operators_and_types"
             and r["op"] == op and r["dtype"] == dtype and r["n"] == 2 ** 28]
    if len(found) != 1:
        raise SystemExit(f"FAIL: {len(found)} runs of {op} over {dtype} in {name}")
    return found[0]


def right(root):
    sum16 = run(root, "h100-beyond.json", "sum", "float16")["tolerance"]
    sum32 = run(root, "h100-beyond.json", "sum", "float32")["tolerance"]
    return {
        "acc_bytes_sum_int32": str(ctypes.sizeof(ctypes.c_int64)),
        "acc_bytes_variance_float16": str(moments(ctypes.c_float)),
        "acc_bytes_variance_int32": str(moments(ctypes.c_double)),
        "acc_bytes_argmax_float16": str(ctypes.sizeof(ValueIndexFloat)),
        "bound_ratio_2p28": f"{sum16 / sum32:.2f}",
        "vs_cub_variance_float16_h200":
            f"{run(root, 'h200-ops.json', 'variance', 'float16')['vs_cub']:.2f}",
    }


# Answers that are wrong, each named by the program without its value: int32's own 4 bytes, the
# argmax's value and index without the padding between them, the ratio of the two types' unit
# roundoffs (as if halves were added in half precision), and the H100's x CUB.
WRONGS = (("acc_bytes_sum_int32", "4"), ("acc_bytes_argmax_float16", "12"),
          ("bound_ratio_2p28", "8192"), ("vs_cub_variance_float16_h200", "1.73"))
