/* A C host on the C ABI (gpy_c.h): a host array lent as a DLPack tensor,
 * a script that fits a line to it, the coefficients read back, a host
 * function, and the error text of a failing script. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpy/gpy_c.h"

static int deleted = 0;
static void on_delete(DLManagedTensorVersioned* self) { (void)self; ++deleted; }

static int host_sqrt(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user;
    if (nargs != 1 || args[0].kind != GPY_FLOAT || args[0].f < 0) {
        gpy_raise(g, "ValueError", "host_sqrt needs one non-negative float");
        return 1;
    }
    result->kind = GPY_FLOAT;
    result->f = sqrt(args[0].f);
    return 0;
}

int main(void) {
    double xy[2][50];
    for (int i = 0; i < 50; ++i) {
        xy[0][i] = i * 0.1;
        xy[1][i] = 3.0 * xy[0][i] - 2.0 + 0.01 * ((i * 7919) % 13 - 6);
    }
    int64_t shape[2] = {2, 50};
    DLManagedTensorVersioned t;
    memset(&t, 0, sizeof t);
    t.version.major = DLPACK_MAJOR_VERSION;
    t.version.minor = DLPACK_MINOR_VERSION;
    t.deleter = on_delete;
    t.dl_tensor.data = xy;
    t.dl_tensor.device.device_type = kDLCPU;
    t.dl_tensor.ndim = 2;
    t.dl_tensor.dtype.code = kDLFloat;
    t.dl_tensor.dtype.bits = 64;
    t.dl_tensor.dtype.lanes = 1;
    t.dl_tensor.shape = shape;

    gpy_config cfg;
    gpy_config_init(&cfg);
    cfg.backend = "cpu";
    gpy_interp* g = gpy_new(&cfg);
    if (!g) {
        fprintf(stderr, "%s\n", gpy_last_error(NULL));
        return 1;
    }
    gpy_define(g, "host_sqrt", host_sqrt, NULL);
    if (gpy_set_dlpack_versioned(g, "xy", &t) != 0 ||
        gpy_run_string(g,
                       "import numpy as np\n"
                       "slope, intercept = np.polyfit(xy[0], xy[1], 1)\n"
                       "rms = host_sqrt(float(np.mean((np.polyval([slope, intercept], xy[0]) - xy[1]) ** 2)))\n"
                       "del xy\n",
                       "fit.gpy") != 0) {
        fprintf(stderr, "%s\n", gpy_last_error(g));
        return 1;
    }
    double slope = 0, intercept = 0, rms = 0;
    gpy_get_float(g, "slope", &slope);
    gpy_get_float(g, "intercept", &intercept);
    gpy_get_float(g, "rms", &rms);
    printf("fit: slope %.3f, intercept %.3f, rms %.4f; tensor deleted %d time(s)\n", slope, intercept, rms, deleted);
    int rc = gpy_run_string(g, "host_sqrt(-1.0)\n", "neg.gpy");
    printf("error %d: %s\n", rc, gpy_last_error(g));
    gpy_free(g);
    return fabs(slope - 3.0) < 0.01 && fabs(intercept + 2.0) < 0.05 && deleted == 1 && rc == 1 ? 0 : 1;
}
