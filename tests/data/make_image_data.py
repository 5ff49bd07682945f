#!/usr/bin/env python3
"""Writes the small images of `portkern run --image`'s tests and what Pillow makes of them (images.txt).

Run from the repository root in the project's virtual environment (Pillow pinned in
tools/tuning/requirements.txt):  .venv/bin/python tests/data/make_image_data.py

The images: rgb.png and rgb.jpg, 40 x 30 of noise over gradients (the hardest content for a resize); the
modes PIL converts, 8 x 6 each: grey (8 and 2 bits), grey + alpha (8 and 16 bits), palette with a tRNS chunk,
RGBA, 16-bit RGB, grey and CMYK JPEGs; grey16.png, which is rejected; huge.png and huge.jpg, whose headers
claim more pixels than the decoder takes. The 16-bit, 2-bit and huge PNGs are written by this script's own
PNG writer (Pillow writes none of them); everything else by Pillow.

images.txt holds, one line each, whitespace-separated, pixels as hex bytes (RGB interleaved, rows top down):
  decode FILE W H HEX                 Image.open(FILE).convert("RGB")
  resize FILE W H HEX                 ... .resize((W, H), Image.BILINEAR): across only, down only, both,
                                      shrinking, enlarging, one of each, vertical pass first (the last two)
  transform FILE RESIZE CROP STEP HEX torchvision's Resize(RESIZE) and CenterCrop(CROP) on the PIL image,
                                      8-bit, every STEP-th row and column of the crop
The transform lines apply torchvision's own size and offset formulas (torchvision/transforms/functional.py:
_compute_resized_output_size and center_crop) to Pillow's resize and crop: torchvision does nothing else to
a PIL image before ToTensor and Normalize, which the test applies itself.
"""
import pathlib
import struct
import zlib

import numpy as np
from PIL import Image

OUT = pathlib.Path(__file__).resolve().parent


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path, width, height, bit_depth, color_type, raw_rows):
    """A PNG of unfiltered rows (each raw row already packed at the bit depth, big-endian); no rows: a header
    and an empty image data chunk (a decoder reading the header alone sees nothing wrong)."""
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    data = b"".join(b"\x00" + row for row in raw_rows)
    body = png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(data))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + body + png_chunk(b"IEND", b""))


def noise_rgb(width, height, seed):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    base = np.stack([x * 255 / width, y * 255 / height, (x + y) * 127 / (width + height)], axis=-1)
    return np.clip(base + rng.integers(-60, 61, size=(height, width, 3)), 0, 255).astype(np.uint8)


def make_images():
    rgb = noise_rgb(40, 30, 1)
    Image.fromarray(rgb).save(OUT / "rgb.png")
    Image.fromarray(rgb).save(OUT / "rgb.jpg", quality=90)   # 4:2:0 chroma, as most photographs
    small = noise_rgb(8, 6, 2)
    grey = small[..., 0]
    Image.fromarray(grey).save(OUT / "grey.png")
    Image.fromarray(grey).save(OUT / "grey.jpg", quality=95)
    Image.fromarray(np.dstack([grey, small[..., 1]])).save(OUT / "grey_alpha.png")
    Image.fromarray(np.dstack([small, small[..., :1]])).save(OUT / "rgba.png")
    palette = Image.fromarray(small).quantize(colors=7)
    palette.save(OUT / "palette.png", transparency=3)
    Image.fromarray(small).convert("CMYK").save(OUT / "cmyk.jpg", quality=95)
    wide = noise_rgb(8, 6, 3).astype(np.uint16) * 257 + np.arange(48, dtype=np.uint16).reshape(6, 8, 1)
    write_png(OUT / "rgb16.png", 8, 6, 16, 2, [row.astype(">u2").tobytes() for row in wide])
    write_png(OUT / "grey_alpha16.png", 8, 6, 16, 4,
              [np.dstack([w[..., 0], w[..., 1]]).astype(">u2").tobytes() for w in wide[:, None]])
    grey2 = (grey >> 6).astype(np.uint8)   # 2 bits: four pixels a byte, most significant first
    write_png(OUT / "grey2.png", 8, 6, 2, 0,
              [bytes((r[i] << 6) | (r[i + 1] << 4) | (r[i + 2] << 2) | r[i + 3] for i in range(0, 8, 4)) for r in grey2])
    Image.fromarray((grey.astype(np.uint16) * 257)).save(OUT / "grey16.png")
    write_png(OUT / "huge.png", 20000, 20000, 8, 2, [])   # a header alone: 400 million pixels
    jpeg = bytearray((OUT / "grey.jpg").read_bytes())
    sof = jpeg.index(b"\xff\xc0")
    jpeg[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)   # height, width
    (OUT / "huge.jpg").write_bytes(bytes(jpeg))


def hexed(image):
    return np.asarray(image.convert("RGB"), dtype=np.uint8).tobytes().hex()


def torchvision_crop(image, resize, crop):
    """Resize(resize) then CenterCrop(crop) as torchvision does them to a PIL image."""
    w, h = image.size
    short, long = (w, h) if w <= h else (h, w)
    new_short, new_long = resize, int(resize * long / short)
    new_w, new_h = (new_short, new_long) if w <= h else (new_long, new_short)
    if (new_w, new_h) != (w, h):
        image = image.resize((new_w, new_h), Image.BILINEAR)
    top = int(round((new_h - crop) / 2.0))
    left = int(round((new_w - crop) / 2.0))
    return image.crop((left, top, left + crop, top + crop))


def main():
    make_images()
    lines = []
    for name in ["rgb.png", "rgb.jpg", "grey.png", "grey2.png", "grey.jpg", "grey_alpha.png", "grey_alpha16.png",
                 "rgba.png", "palette.png", "rgb16.png", "cmyk.jpg"]:
        with Image.open(OUT / name) as image:
            lines.append(f"decode {name} {image.width} {image.height} {hexed(image)}")
    rgb = Image.open(OUT / "rgb.png").convert("RGB")
    for w, h in [(13, 30), (40, 11), (13, 11), (7, 5), (1, 1), (45, 34), (41, 29), (23, 45), (38, 8), (45, 20)]:
        lines.append(f"resize rgb.png {w} {h} {hexed(rgb.resize((w, h), Image.BILINEAR))}")
    for name in ["rgb.png", "rgb.jpg"]:
        image = Image.open(OUT / name).convert("RGB")
        for resize, crop, step in [(24, 20, 1), (37, 33, 1), (256, 224, 8)]:
            cropped = np.asarray(torchvision_crop(image, resize, crop), dtype=np.uint8)[::step, ::step]
            lines.append(f"transform {name} {resize} {crop} {step} {cropped.tobytes().hex()}")
    (OUT / "images.txt").write_text("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} lines to {OUT / 'images.txt'}")


if __name__ == "__main__":
    main()
