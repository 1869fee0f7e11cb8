/* A CUDA host shares device memory and a stream with gpy (C ABI): it
 * uploads x on its own non-blocking stream and, without synchronising,
 * lends the device pointer to gpy and puts gpy's work on that stream; gpy's
 * kernels run after the upload, and the result comes back as a device
 * pointer the host downloads on the same stream. Exits 0 when the result
 * matches, 77 (skipped) without a GPU. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpy/gpy_c.h"

#define CU(call)                                                        \
    do {                                                                \
        CUresult e_ = (call);                                           \
        if (e_ != CUDA_SUCCESS) {                                       \
            fprintf(stderr, "%s failed: %d\n", #call, (int)e_);         \
            return 1;                                                   \
        }                                                               \
    } while (0)

static int deleted = 0;
static void on_delete(DLManagedTensorVersioned* self) { (void)self; ++deleted; }

enum { N = 1 << 20 };
static float host_x[N], host_y[N];

int main(void) {
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
        printf("cuda_host: no GPU, skipped\n");
        return 77;
    }
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    CUstream stream;
    CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    for (int i = 0; i < N; ++i) host_x[i] = (float)(i % 1000) * 0.001f;
    CUdeviceptr x;
    CU(cuMemAlloc(&x, sizeof host_x));
    CU(cuMemcpyHtoDAsync(x, host_x, sizeof host_x, stream));  /* still in flight below */

    gpy_config cfg;
    gpy_config_init(&cfg);
    cfg.backend = "cuda";
    gpy_interp* g = gpy_new(&cfg);
    if (!g) {
        fprintf(stderr, "%s\n", gpy_last_error(NULL));
        return 1;
    }
    int64_t shape[1] = {N};
    DLManagedTensorVersioned t;
    memset(&t, 0, sizeof t);
    t.version.major = DLPACK_MAJOR_VERSION;
    t.version.minor = DLPACK_MINOR_VERSION;
    t.deleter = on_delete;
    t.dl_tensor.data = (void*)x;
    t.dl_tensor.device.device_type = kDLCUDA;
    t.dl_tensor.device.device_id = 0;
    t.dl_tensor.ndim = 1;
    t.dl_tensor.dtype.code = kDLFloat;
    t.dl_tensor.dtype.bits = 32;
    t.dl_tensor.dtype.lanes = 1;
    t.dl_tensor.shape = shape;
    if (gpy_use_stream(g, (void*)stream) != 0 || gpy_set_dlpack_versioned(g, "x", &t) != 0 ||
        gpy_run_string(g, "import numpy as np\ny = np.sqrt(x) * 2 + 1\nx[:] = 0\n", "device.gpy") != 0) {
        fprintf(stderr, "%s\n", gpy_last_error(g));
        return 1;
    }
    DLManagedTensorVersioned* y = gpy_get_dlpack_versioned(g, "y");
    if (!y || y->dl_tensor.device.device_type != kDLCUDA) {
        fprintf(stderr, "y: %s\n", gpy_last_error(g));
        return 1;
    }
    CU(cuMemcpyDtoHAsync(host_y, (CUdeviceptr)y->dl_tensor.data, sizeof host_y, stream));
    CU(cuMemcpyDtoHAsync(host_x, x, sizeof host_x, stream));
    CU(cuStreamSynchronize(stream));
    int bad = 0;
    for (int i = 0; i < N; ++i) {
        float want = sqrtf((float)(i % 1000) * 0.001f) * 2 + 1;
        if (fabsf(host_y[i] - want) > 1e-5f * want || host_x[i] != 0) ++bad;
    }
    y->deleter(y);
    gpy_free(g);  /* the script's x goes: the host's tensor is released */
    printf("cuda_host: %d of %d elements wrong; tensor deleted %d time(s)\n", bad, N, deleted);
    CU(cuMemFree(x));
    CU(cuStreamDestroy(stream));
    return bad == 0 && deleted == 1 ? 0 : 1;
}
