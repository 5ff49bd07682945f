#!/usr/bin/env python3
"""`portkern run --image`'s preprocessing against torchvision's own, on the same image files (where torch
and torchvision are installed: the GPU machine).

For each image, torchvision's ImageNet transform (weights.transforms(): ImageClassification with crop 224
and --resize) on
  pil:    Image.open(FILE).convert("RGB"), the path the weights were evaluated on (portkern matches it to the
          bit with the same Pillow version; Pillow < 13 resizes horizontally first always, which differs by one
          8-bit level at some pixels of images more than twice as tall as wide);
  tensor: torchvision.io.decode_image(FILE, mode=RGB), a uint8 tensor resized by torch's antialiased kernel;
against the batch `portkern run resnet50 --image FILE... --save-input` wrote. Prints the largest difference
per image and path (normalised units; one 8-bit level is 1 / (255 * std) = 0.017 to 0.018); exit 1 when the
PIL path differs by more than 1e-6. SKIPPED without torchvision.

  python3 tools/net/torch_preprocess.py --portkern build/portkern IMAGE...
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

from torch_net import load_safetensors


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("images", nargs="+")
    parser.add_argument("--portkern", default="build/portkern")
    parser.add_argument("--resize", type=int, default=256)
    args = parser.parse_args()
    try:
        import torch
        import torchvision
        from PIL import Image
        from torchvision.io import ImageReadMode, decode_image
        from torchvision.transforms._presets import ImageClassification
    except ImportError as e:
        print(f"SKIPPED: {e}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        saved = pathlib.Path(tmp) / "input.safetensors"
        cmd = [args.portkern, "run", "resnet50", "--repeats", "1", "--resize", str(args.resize), "--image",
               *args.images, "--save-input", str(saved)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"FAIL: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
            return 1
        ours = load_safetensors(saved)["input"]   # NHWC
    transform = ImageClassification(crop_size=224, resize_size=args.resize)
    import PIL
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, Pillow {PIL.__version__}")
    failed = False
    for i, path in enumerate(args.images):
        with Image.open(path) as image:
            pil = transform(image.convert("RGB")).permute(1, 2, 0).numpy()
        d_pil = float(abs(ours[i] - pil).max())
        failed |= d_pil > 1e-6
        try:   # torchvision's own decoders (16-bit PNGs give uint16, which the transform does not take)
            tensor = transform(decode_image(path, mode=ImageReadMode.RGB)).permute(1, 2, 0).numpy()
            versus_tensor = (f"{float(abs(ours[i] - tensor).max()):.2e} "
                             f"({int((abs(ours[i] - tensor) > 1e-6).sum())} values differ)")
        except Exception as e:  # noqa: BLE001 - reported, not fatal: the PIL path is the reference
            versus_tensor = f"not compared ({e})"
        print(f"{path}: max |portkern - torchvision| PIL {d_pil:.2e} {'ok' if d_pil <= 1e-6 else 'FAIL'}, "
              f"uint8 tensor {versus_tensor}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
