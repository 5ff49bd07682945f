#!/usr/bin/env python3
"""Generate the GEMMs of large workloads, which the network lists (batch 1-32, short sequences) leave out.

Writes, relative to the repository root:
  data/shapes/gemm_large.csv   dense layers of transformers at training batch sizes and long sequences, LLM
                               prefill, a CNN at a training batch, and squares that are not powers of two
  data/shapes/gemm_square.csv  the `square` set of `portkern bench gemm` (256-8192) as a shape list

Both have gemm_more_nets.py's header and conventions (`m,k,n,batch,trans_a,trans_b,net,layer,kind`, activations
as A with one row per token, weights stored in x out, dense layers NN), and a `net` label per workload, so that
`tools/tuning/analyze.py --networks` leaves each out in turn. Without them the tuning data held six squares as its
only GEMMs above a few GFLOP, and a selection fitted to the networks' GEMMs served them with blocks that are
best on mid-size products (docs/tuning.md, 2026-11-26).

Workloads (tokens = batch x sequence):
  bert_large_b8      BERT-large, batch 8 x sequence 512: QKV (3 x 1024), attention output, FFN 1024-4096-1024
  vit_l16_b32        ViT-L/16, batch 32 x 197 tokens: the same dense layers
  gpt2_train_b8      GPT-2 small training step, batch 8 x 1024 tokens: QKV 768-2304, output, FFN 768-3072-768
  llama7b_prefill    a 7B LLaMA-style decoder, prefill of 2048 tokens: QKV, output, gate/up 4096-11008, down
  resnet50_b64       ResNet-50 at batch 64: conv1 as im2col, a 3x3 of each stage as im2col, layer4's 1x1
  square             the `square` set (gemm_square.csv only)
  square_odd         squares that are not powers of two: 1536, 3000, 6144
"""
from __future__ import annotations

import csv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = ["m", "k", "n", "batch", "trans_a", "trans_b", "net", "layer", "kind"]


def transformer(net: str, tokens: int, hidden: int, ffn: int, qkv: int | None = None, gated: bool = False) -> list:
    """The dense layers of one transformer block applied to `tokens` tokens (kind `linear`)."""
    rows = [(tokens, hidden, qkv or 3 * hidden, "qkv"), (tokens, hidden, hidden, "attn_out"),
            (tokens, hidden, ffn, "ffn_up"), (tokens, ffn, hidden, "ffn_down")]
    if gated:
        rows.append((tokens, hidden, 2 * ffn, "gate_up"))
    return [(m, k, n, 1, 0, 0, net, layer, "linear") for m, k, n, layer in rows]


def resnet50_b64() -> list:
    """ResNet-50 at batch 64 (NHWC im2col GEMMs: m = batch x output pixels, k = window x in, n = out)."""
    b = 64
    return [(b * 112 * 112, 7 * 7 * 3, 64, 1, 0, 0, "resnet50_b64", "conv1", "im2col"),
            (b * 56 * 56, 9 * 64, 64, 1, 0, 0, "resnet50_b64", "conv2_2", "im2col"),
            (b * 28 * 28, 9 * 128, 128, 1, 0, 0, "resnet50_b64", "conv3_2", "im2col"),
            (b * 14 * 14, 9 * 256, 256, 1, 0, 0, "resnet50_b64", "conv4_2", "im2col"),
            (b * 7 * 7, 2048, 512, 1, 0, 0, "resnet50_b64", "conv5_1", "conv1x1")]


def squares(sizes, net: str) -> list:
    return [(s, s, s, 1, 0, 0, net, f"square_{s}", "square") for s in sizes]


def large() -> list:
    return (transformer("bert_large_b8", 8 * 512, 1024, 4096)
            + transformer("vit_l16_b32", 32 * 197, 1024, 4096)
            + transformer("gpt2_train_b8", 8 * 1024, 768, 3072)
            + transformer("llama7b_prefill", 2048, 4096, 11008, gated=True)
            + resnet50_b64() + squares((1536, 3000, 6144), "square_odd"))


def write(path: Path, rows: list) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(rows)


def main() -> None:
    write(ROOT / "data" / "shapes" / "gemm_large.csv", large())
    write(ROOT / "data" / "shapes" / "gemm_square.csv", squares((256, 512, 1024, 2048, 4096, 8192), "square"))


if __name__ == "__main__":
    main()
