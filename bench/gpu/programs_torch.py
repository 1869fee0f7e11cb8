#!/usr/bin/env python3
"""The programs of programs.gpy (k-means iterations, conjugate gradient on a
2-D Laplacian) written as a PyTorch user would, line for line, on the GPU.
Same arguments and output lines as programs.gpy ("name seconds",
"name_check value"), for bench/gpu/run.py --programs.

  python3 bench/gpu/programs_torch.py [POINTS] [REPEAT] [-] [GRID] [CG_ITERATIONS]
"""
import math
import sys
import time

import torch

POINTS = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 22
REPEAT = int(sys.argv[2]) if len(sys.argv) > 2 else 5
GRID = int(sys.argv[4]) if len(sys.argv) > 4 else 2048
CG_ITERATIONS = int(sys.argv[5]) if len(sys.argv) > 5 else 50
K = 8
KMEANS_ITERATIONS = 10
dev = "cuda"
synchronize = torch.cuda.synchronize

t = torch.arange(POINTS, device=dev, dtype=torch.int64)
blob = t % K
tf = t.to(torch.float64)
radius = 2.0 * torch.abs(torch.sin(0.37 * tf * tf + 0.1))
angle = 2.39996 * tf
points = torch.zeros((POINTS, 2), dtype=torch.float32, device=dev)
points[:, 0] = (5.0 * torch.cos(blob.to(torch.float64) * 0.785) + radius * torch.cos(angle)).to(torch.float32)
points[:, 1] = (5.0 * torch.sin(blob.to(torch.float64) * 0.785) + radius * torch.sin(angle)).to(torch.float32)
start_centers = points[:K].clone()

n = GRID
h = 1.0 / (n + 1)
x = torch.linspace(h, 1.0 - h, n, dtype=torch.float64, device=dev)
exact = (x[:, None] * (1.0 - x[:, None])) * torch.sin(math.pi * x[None, :])
synchronize()


def laplacian(v):
    out = 4.0 * v
    out[1:, :] -= v[:-1, :]
    out[:-1, :] -= v[1:, :]
    out[:, 1:] -= v[:, :-1]
    out[:, :-1] -= v[:, 1:]
    return out


def kmeans():
    centers = start_centers.clone()
    for it in range(KMEANS_ITERATIONS):
        d2 = ((points[:, None, :] - centers[None, :, :]) ** 2).sum(dim=2)
        labels = d2.argmin(dim=1)
        new_centers = torch.zeros_like(centers)
        for k in range(K):
            in_k = labels == k
            new_centers[k] = (points * in_k[:, None]).sum(dim=0) / in_k.sum()
        centers = new_centers
    return float(torch.abs(centers).sum())


def conjugate_gradient():
    b = laplacian(exact)
    u = torch.zeros_like(b)
    r = b.clone()
    p = r.clone()
    rs = float((r * r).sum())
    for it in range(CG_ITERATIONS):
        Ap = laplacian(p)
        alpha = rs / float((p * Ap).sum())
        u += alpha * p
        r -= alpha * Ap
        rs_new = float((r * r).sum())
        p = r + (rs_new / rs) * p
        rs = rs_new
    return math.sqrt(rs)


def run(name, fn):
    best = 1e9
    check = 0.0
    for i in range(REPEAT + 1):
        t0 = time.perf_counter()
        check = fn()
        synchronize()
        dt = time.perf_counter() - t0
        if i > 0 and dt < best:
            best = dt
    print(name, best)
    print(name + "_check", check)


run("kmeans", kmeans)
run("conjugate_gradient", conjugate_gradient)
