"""PyTorch's bf16 matmul on the CPU (oneDNN inside, AMX where present) on squares, for machines whose oneDNN has
no headers to build `portkern bench gemm --dtype bf16` against (the H100 host): GFLOP/s, best of 5 samples.

    python3 tools/baselines/torch_bf16_gemm.py THREADS
"""
import sys
import time

import torch


def main() -> None:
    torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else torch.get_num_threads())
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    for n in [256, 512, 1024, 2048, 4096]:
        a, b = torch.randn(n, n).bfloat16(), torch.randn(n, n).bfloat16()
        for _ in range(3):
            torch.matmul(a, b)
        best = float("inf")
        for _ in range(5):
            start, reps = time.perf_counter(), 0
            while time.perf_counter() - start < 0.2:
                torch.matmul(a, b)
                reps += 1
            best = min(best, (time.perf_counter() - start) / reps)
        print(f"{n:5d} torch bf16 {2 * n**3 / best / 1e9:9.1f} GFLOP/s")


if __name__ == "__main__":
    main()
