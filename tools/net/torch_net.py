#!/usr/bin/env python3
"""Whole networks against PyTorch on the same weights and input (issue 17's correctness and timing check).

For each model: torchvision's definition with PyTorch's own random initialisation (torch.manual_seed(1)),
its state dict written as safetensors, a normalised random batch (NHWC) written likewise; PyTorch's fp32
logits (TF32 off) and times (eager and as a CUDA graph, median of repeats after warm-up); then
`portkern run MODEL --weights ... --input ... --save-logits ...` for each --gemm mode, whose logits must be
within the tolerance of PyTorch's: max |ours - torch| <= 1e-3 * max |torch| (fp32 accumulation over
different orders and Winograd; 2e-2 with --precision tf32, both sides then timed with TF32 and our logits
still checked against PyTorch's fp32 ones). Exit 1 when a comparison fails, 0 otherwise; SKIPPED without torchvision.

  python3 tools/net/torch_net.py --portkern build/portkern --device cuda:0 --batch 1 --json out.json

The JSON (a list, one row per model) is what `tools/report/html_report.py --torch FILE` shows beside the
report's own network times, on the device of the same name.
"""
import argparse
import json
import pathlib
import struct
import subprocess
import sys
import tempfile
import time


def save_safetensors(path, tensors):
    """tensors: name -> contiguous float32 numpy array."""
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        data = array.astype("<f4", copy=False).tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def load_safetensors(path):
    import numpy as np
    raw = pathlib.Path(path).read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + length])
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        out[name] = np.frombuffer(raw[8 + length + begin:8 + length + end], dtype="<f4").reshape(entry["shape"])
    return out


def median_ms(fn, sync, repeats):
    for _ in range(3):
        fn()
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    return times[len(times) // 2]


def device_name(device):
    """The device's name as `portkern report` records it (html_report.py matches PyTorch's rows to its
    devices by it): the GPU's name, or the CPU's "model name" of /proc/cpuinfo."""
    import torch
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "cpu"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--portkern", default="build/portkern")
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--models", nargs="+", default=["vgg16", "resnet50"])
    parser.add_argument("--modes", nargs="+", default=["deployed", "portable", "vendor"])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--precision", choices=["accurate", "tf32"], default="accurate",
                        help="tf32: PyTorch timed with allow_tf32 and portkern run --precision tf32 (logits still "
                             "checked against PyTorch's fp32 ones, within 2e-2)")
    parser.add_argument("--json")
    args = parser.parse_args()
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"SKIPPED: {e}")
        return 0
    cuda = args.device.startswith("cuda")
    device = torch.device(args.device if cuda else "cpu")
    tf32 = args.precision == "tf32"
    torch.backends.cudnn.allow_tf32 = False   # the reference logits: fp32
    torch.backends.cuda.matmul.allow_tf32 = False
    tolerance = 2e-2 if tf32 else 1e-3
    torch.backends.cudnn.benchmark = True
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    results, failed = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            torch.manual_seed(1)
            model = getattr(torchvision.models, name)(weights=None).eval().to(device)
            state = {k: v.detach().float().cpu().contiguous().numpy() for k, v in model.state_dict().items()
                     if not k.endswith("num_batches_tracked")}
            weights = pathlib.Path(tmp) / f"{name}.safetensors"
            save_safetensors(weights, state)
            gen = torch.Generator().manual_seed(7)
            x = torch.randn(args.batch, 3, 224, 224, generator=gen)
            inputs = pathlib.Path(tmp) / f"{name}-input.safetensors"
            save_safetensors(inputs, {"input": x.permute(0, 2, 3, 1).contiguous().numpy()})
            xd = x.to(device)
            with torch.no_grad():
                want = model(xd).float().cpu().numpy()
                torch.backends.cudnn.allow_tf32 = tf32   # timed at the precision asked
                torch.backends.cuda.matmul.allow_tf32 = tf32
                eager = median_ms(lambda: model(xd), sync, args.repeats)
                graph_ms = None
                if cuda:
                    static = xd.clone()
                    stream = torch.cuda.Stream()
                    stream.wait_stream(torch.cuda.current_stream())
                    with torch.cuda.stream(stream):
                        for _ in range(3):
                            model(static)
                    torch.cuda.current_stream().wait_stream(stream)
                    graph = torch.cuda.CUDAGraph()
                    with torch.cuda.graph(graph):
                        model(static)
                    graph_ms = median_ms(graph.replay, sync, args.repeats)
            row = {"model": name, "batch": args.batch, "device": args.device, "device_name": device_name(device),
                   "threads": None if cuda else torch.get_num_threads(), "torch": torch.__version__,
                   "precision": args.precision, "torch_eager_ms": eager, "torch_graph_ms": graph_ms, "modes": {}}
            scale = float(abs(want).max())
            print(f"{name} b{args.batch}: PyTorch {'TF32' if tf32 else 'fp32 (TF32 off)'} eager {eager:.3f} ms"
                  + (f", CUDA graph {graph_ms:.3f} ms" if graph_ms else ""))
            for mode in args.modes:
                logits = pathlib.Path(tmp) / f"{name}-{mode}-logits.safetensors"
                out_json = pathlib.Path(tmp) / f"{name}-{mode}.json"
                cmd = [args.portkern, "run", name, "--device", args.device, "--batch", str(args.batch), "--gemm", mode,
                       "--weights", str(weights), "--input", str(inputs), "--save-logits", str(logits),
                       "--repeats", str(args.repeats), "--json", str(out_json)]
                if tf32:
                    cmd += ["--precision", "tf32"]
                done = subprocess.run(cmd, capture_output=True, text=True)
                if done.returncode != 0:
                    print(f"  {mode}: FAIL (exit {done.returncode}) {done.stderr.strip()[-400:]}")
                    failed = True
                    continue
                got = load_safetensors(logits)["logits"]
                error = float(abs(got - want).max()) / scale
                ours = json.loads(out_json.read_text())
                ok = error <= tolerance
                failed |= not ok
                row["modes"][mode] = {"batch_ms": ours["batch_ms"], "engine": ours["engine"], "max_rel_error": error,
                                      "precision": ours["precision"], "pick": ours.get("pick"),
                                      "prepare_ms": ours["prepare_ms"]}
                print(f"  portkern {mode:9} {ours['batch_ms']:8.3f} ms  ({ours['engine']})  logits max error / max "
                      f"{error:.1e} {'ok' if ok else 'FAIL'}  vs PyTorch eager {eager / ours['batch_ms']:.2f}x"
                      + (f", graph {graph_ms / ours['batch_ms']:.2f}x" if graph_ms else ""))
            results.append(row)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
