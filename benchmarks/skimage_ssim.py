#!/usr/bin/env python3
"""Peer for `benchmarks/run.py`: scikit-image SSIM alone (decode with Pillow, then
structural_similarity with the reference definition of shared/reference/README.md §3)."""
import sys
import numpy as np
from PIL import Image
from skimage.metrics import structural_similarity

a = np.asarray(Image.open(sys.argv[1]).convert("RGB"), dtype=np.float64)
b = np.asarray(Image.open(sys.argv[2]).convert("RGB"), dtype=np.float64)
s = structural_similarity(a, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
                          data_range=255, channel_axis=-1)
print(f"SSIM {s:.6f}")
