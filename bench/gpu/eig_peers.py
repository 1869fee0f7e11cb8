# np.linalg.eig/eigvals of a 1024^2 float64 matrix in torch (CUDA) and NumPy (host LAPACK),
# the peers of bench/gpu/device_ops.gpy's eig rows where CuPy (before 14) has no eig.
#   python3 bench/gpu/eig_peers.py
import time, torch, numpy as np
A = torch.tensor((np.arange(1024 * 1024) * 0.6180339887498949 % 1.0).reshape(1024, 1024) - 0.5, device="cuda")
for name, fn in [("eig", lambda: torch.linalg.eig(A)), ("eigvals", lambda: torch.linalg.eigvals(A))]:
    b = 1e9
    for r in range(4):
        torch.cuda.synchronize(); t0 = time.perf_counter(); fn(); torch.cuda.synchronize(); dt = time.perf_counter() - t0
        if r and dt < b: b = dt
    print("torch", name, "%.4f" % (b * 1e3))
A = A.cpu().numpy()
t0 = time.perf_counter(); np.linalg.eig(A); print("numpy eig %.4f" % ((time.perf_counter() - t0) * 1e3))
