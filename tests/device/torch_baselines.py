#!/usr/bin/env python3
"""PyTorch's time for the reductions of lessons 19-21, for their `--baseline FILE` columns.

Run on the GPU machine (tests/device/run.sh, step `axes`, with PYTHONUNBUFFERED=1). For every case: float32 random non-zero
data, torch.sum(x, dim=dims), warmed up, then timed with CUDA events one call per sample, the L2
flushed before every sample by writing a buffer larger than it (the flush is outside the events),
median and minimum of the samples. Writes

  {"device": name, "torch": version, "l2_bytes": n, "flush_bytes": n, "samples": n,
   "entries": [{"shape": [..], "dims": [..], "dtype": "float32", "op": "sum",
                "median_us": x, "min_us": y}]}
"""
import argparse
import json
import statistics
import sys


# (shape, dims): lessons 19 and 20 (rows: dim 1, columns: dim 0), then lesson 21's rank-4 tensor.
MATRICES = [(4096, 4096), (65536, 64), (64, 65536), (1 << 20, 8), (8, 1 << 20)]
CASES = [(list(s), [1]) for s in MATRICES] + [(list(s), [0]) for s in MATRICES]
CASES += [([64, 128, 64, 128], dims) for dims in ([0, 2], [1, 3], [3], [0])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--samples", type=int, default=60, help="timed samples per case (>= 50)")
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    if args.samples < 50:
        parser.error("--samples: at least 50")

    import torch  # imported here so --help works without it

    if not torch.cuda.is_available():
        print("torch_baselines: no CUDA device visible to torch", file=sys.stderr)
        return 77
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    l2 = int(getattr(props, "L2_cache_size", 0)) or (50 << 20)
    # Writing a buffer of at least 256 MiB and 3x the L2 evicts whatever the last call left there.
    flush_bytes = max(256 << 20, 3 * l2)
    flush = torch.empty(flush_bytes // 4, dtype=torch.float32, device=dev)
    gen = torch.Generator(device=dev)
    gen.manual_seed(20240601)

    entries = []
    for shape, dims in CASES:
        # Uniform in [0.5, 1.5): random, and never zero.
        x = torch.rand(shape, dtype=torch.float32, device=dev, generator=gen) + 0.5
        for _ in range(args.warmup):
            torch.sum(x, dim=dims)
        torch.cuda.synchronize()
        times_ms = []
        for _ in range(args.samples):
            flush.fill_(1.0)  # before the start event: not timed
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.sum(x, dim=dims)
            stop.record()
            stop.synchronize()
            times_ms.append(start.elapsed_time(stop))
        entry = {"shape": shape, "dims": dims, "dtype": "float32", "op": "sum",
                 "median_us": statistics.median(times_ms) * 1000.0, "min_us": min(times_ms) * 1000.0}
        entries.append(entry)
        print(f"torch.sum {'x'.join(map(str, shape)):>18} dim={dims!s:<8} "
              f"median {entry['median_us']:9.1f} us  min {entry['min_us']:9.1f} us", flush=True)
        del x

    doc = {"device": props.name, "torch": torch.__version__, "l2_bytes": l2, "flush_bytes": flush_bytes,
           "samples": args.samples, "entries": entries}
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"torch_baselines: {len(entries)} cases -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
