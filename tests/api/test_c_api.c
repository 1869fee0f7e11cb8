/* Every function of the C ABI (include/gpy/gpy_c.h), from C, linked against
 * libgpy.so: values, host functions, errors, DLPack both ways with the
 * deleter's count, output by line. Exits 0 when every check holds; prints
 * the failed check otherwise. CTest: api_c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpy/gpy_c.h"

static int failures = 0;
#define CHECK(cond)                                                     \
    do {                                                                \
        if (!(cond)) {                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                 \
        }                                                               \
    } while (0)

/* ---- captured output, and the number of times the sink was called ---- */
static char out_text[4096];
static int out_calls = 0;
static void capture(void* user, const char* text, size_t len) {
    (void)user;
    size_t have = strlen(out_text);
    if (have + len < sizeof out_text) {
        memcpy(out_text + have, text, len);
        out_text[have + len] = '\0';
    }
    ++out_calls;
}
static char err_text[4096];
static void capture_err(void* user, const char* text, size_t len) {
    (void)user;
    size_t have = strlen(err_text);
    if (have + len < sizeof err_text) {
        memcpy(err_text + have, text, len);
        err_text[have + len] = '\0';
    }
}

/* ---- a host buffer lent as a DLPack tensor, with its deleter counted ---- */
static int deleted = 0;
static void count_delete(DLManagedTensorVersioned* self) {
    ++deleted;
    free(self);
}
static void count_delete_legacy(DLManagedTensor* self) {
    ++deleted;
    free(self);
}

static DLManagedTensorVersioned* lend(double* data, int64_t* shape, int ndim, uint64_t flags) {
    DLManagedTensorVersioned* t = calloc(1, sizeof *t);
    t->version.major = DLPACK_MAJOR_VERSION;
    t->version.minor = DLPACK_MINOR_VERSION;
    t->deleter = count_delete;
    t->flags = flags;
    t->dl_tensor.data = data;
    t->dl_tensor.device.device_type = kDLCPU;
    t->dl_tensor.ndim = ndim;
    t->dl_tensor.dtype.code = kDLFloat;
    t->dl_tensor.dtype.bits = 64;
    t->dl_tensor.dtype.lanes = 1;
    t->dl_tensor.shape = shape;
    return t;
}

/* ---- host functions ---- */
static int add_scaled(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    double scale = *(double*)user;
    if (nargs != 2 || args[0].kind != GPY_FLOAT || args[1].kind != GPY_INT) {
        gpy_raise(g, "TypeError", "add_scaled(float, int)");
        return 1;
    }
    result->kind = GPY_FLOAT;
    result->f = scale * (args[0].f + (double)args[1].i);
    return 0;
}
static int greet(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user, (void)g;
    static char buf[64];
    snprintf(buf, sizeof buf, "hello %s", nargs == 1 && args[0].kind == GPY_STR ? args[0].s : "?");
    result->kind = GPY_STR;
    result->s = buf;
    return 0;
}
static int array_sum(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user;
    if (nargs != 1 || args[0].kind != GPY_ARRAY) {
        gpy_raise(g, "ValueError", "array_sum needs one array");
        return 1;
    }
    const DLTensor* t = &args[0].array->dl_tensor;
    int64_t n = 1;
    for (int k = 0; k < t->ndim; ++k) n *= t->shape[k];
    double s = 0;
    for (int64_t k = 0; k < n; ++k) s += ((const double*)t->data)[k];
    result->kind = GPY_FLOAT;
    result->f = s;
    return 0;
}
static int identity(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user, (void)g;
    if (nargs == 1) *result = args[0]; /* an argument array handed back: the result owns it */
    return 0;
}
/* Two threads: a host function holds the interpreter until the main thread has tried to enter. */
static int inside = 0, release_it = 0;
static int hold(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user, (void)g, (void)args, (void)nargs, (void)result;
    __atomic_store_n(&inside, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&release_it, __ATOMIC_SEQ_CST)) {
    }
    return 0;
}
static int held_rc = -99;
static void* run_held(void* g) {
    held_rc = gpy_run_string((gpy_interp*)g, "hold()\nafter = 1\n", "held.gpy");
    return NULL;
}
static int fails_quietly(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result) {
    (void)user, (void)g, (void)args, (void)nargs, (void)result;
    return 7;
}

int main(void) {
    CHECK(strcmp(gpy_version(), "0.1.0") == 0);

    /* a bad configuration fails at gpy_new, with the reason */
    gpy_config bad;
    gpy_config_init(&bad);
    bad.backend = "tpu";
    CHECK(gpy_new(&bad) == NULL);
    CHECK(strstr(gpy_last_error(NULL), "backend") != NULL);

    gpy_config cfg;
    gpy_config_init(&cfg);
    CHECK(cfg.lazy == 1);
    cfg.backend = "cpu";
    cfg.out = capture;
    cfg.err = capture_err;
    gpy_interp* g = gpy_new(&cfg);
    CHECK(g != NULL);
    if (!g) return 1;

    /* run, output per line */
    CHECK(gpy_run_string(g, "for i in range(3):\n    print(i)\n", "loop.gpy") == 0);
    CHECK(strcmp(out_text, "0\n1\n2\n") == 0);
    CHECK(out_calls == 3);
    CHECK(strcmp(gpy_last_error(g), "") == 0);

    /* errors: code, one-line text, parts */
    CHECK(gpy_run_string(g, "x = 1\ny = [1, 2][5]\n", "bad.gpy") == 1);
    CHECK(strcmp(gpy_last_error(g), "bad.gpy:2:5: error: IndexError: list index out of range") == 0);
    const gpy_error* e = gpy_last_error_info(g);
    CHECK(strcmp(e->type, "IndexError") == 0 && e->line == 2 && e->column == 5 && strcmp(e->file, "bad.gpy") == 0);
    CHECK(strstr(err_text, "Traceback") != NULL);
    CHECK(gpy_run_string(g, "def f(:\n", "syntax.gpy") == 2);
    CHECK(strcmp(gpy_last_error_info(g)->type, "SyntaxError") == 0);
    CHECK(gpy_run_string(g, "import sys\nsys.exit(3)\n", NULL) == 3);
    CHECK(gpy_run_string(g, "import sys\nsys.exit(0)\n", NULL) == 0);
    CHECK(gpy_run_file(g, "/nonexistent/x.gpy") == 2);

    /* typed globals */
    CHECK(gpy_set_int(g, "n", 41) == 0);
    CHECK(gpy_set_float(g, "h", 0.5) == 0);
    CHECK(gpy_set_str(g, "who", "gpy") == 0);
    CHECK(gpy_run_string(g, "n += 1\nh2 = h * 3\nmsg = who.upper() + '!'\nflag = n > 40\n", NULL) == 0);
    int64_t n = 0;
    double h2 = 0;
    CHECK(gpy_get_int(g, "n", &n) == 0 && n == 42);
    CHECK(gpy_get_float(g, "h2", &h2) == 0 && h2 == 1.5);
    CHECK(gpy_get_float(g, "n", &h2) == 0 && h2 == 42.0);
    CHECK(strcmp(gpy_get_str(g, "msg"), "GPY!") == 0);
    CHECK(gpy_get_int(g, "h2", &n) != 0 && strcmp(gpy_last_error_info(g)->type, "TypeError") == 0);
    CHECK(gpy_get_str(g, "n") == NULL);
    gpy_value v;
    CHECK(gpy_get(g, "flag", &v) == 0 && v.kind == GPY_BOOL && v.i == 1);
    CHECK(gpy_get(g, "nope", &v) != 0 && strcmp(gpy_last_error_info(g)->type, "NameError") == 0);
    CHECK(gpy_run_string(g, "lst = [1, 2]\n", NULL) == 0);
    CHECK(gpy_get(g, "lst", &v) != 0 && v.kind == GPY_OTHER && strcmp(gpy_last_error_info(g)->type, "TypeError") == 0);
    gpy_value none = {GPY_NONE, 0, 0, NULL, NULL};
    CHECK(gpy_set(g, "z", &none) == 0);
    CHECK(gpy_get(g, "z", &v) == 0 && v.kind == GPY_NONE);
    gpy_value bogus = {99, 0, 0, NULL, NULL};
    CHECK(gpy_set(g, "z", &bogus) != 0);

    /* calls into the script */
    CHECK(gpy_run_string(g, "def poly(x, k):\n    return x * x + k\ndef boom():\n    raise KeyError('k')\n", "defs.gpy") == 0);
    gpy_value args[2] = {{GPY_FLOAT, 0, 3.0, NULL, NULL}, {GPY_INT, 4, 0, NULL, NULL}};
    gpy_value r;
    CHECK(gpy_call(g, "poly", args, 2, &r) == 0 && r.kind == GPY_FLOAT && r.f == 13.0);
    CHECK(gpy_call(g, "boom", NULL, 0, &r) == 1 && strcmp(gpy_last_error_info(g)->type, "KeyError") == 0);
    CHECK(gpy_last_error_info(g)->line == 4);
    CHECK(gpy_run_string(g, "def outer():\n    return boom()\nouter()\n", "tb.gpy") == 1);
    CHECK(gpy_last_error_frames(g) == 3);
    const char *fn = NULL, *file = NULL;
    int fl = 0, fc = 0;
    CHECK(gpy_last_error_frame(g, 0, &fn, &file, &fl, &fc) == 0 && strcmp(fn, "<module>") == 0 && strcmp(file, "tb.gpy") == 0 && fl == 3);
    CHECK(gpy_last_error_frame(g, 1, &fn, &file, &fl, &fc) == 0 && strcmp(fn, "outer") == 0 && fl == 2);
    CHECK(gpy_last_error_frame(g, 2, &fn, &file, &fl, &fc) == 0 && strcmp(fn, "boom") == 0 && strcmp(file, "defs.gpy") == 0 && fl == 4);
    CHECK(gpy_last_error_frame(g, 3, &fn, &file, &fl, &fc) != 0);
    CHECK(gpy_call(g, "missing", NULL, 0, NULL) != 0);
    gpy_function* poly = gpy_get_function(g, "poly");
    CHECK(poly != NULL);
    CHECK(gpy_run_string(g, "poly = None\n", NULL) == 0);
    CHECK(gpy_call_function(g, poly, args, 2, &r) == 0 && r.kind == GPY_FLOAT && r.f == 13.0);
    CHECK(gpy_call(g, "poly", args, 2, &r) != 0 && strcmp(gpy_last_error_info(g)->type, "TypeError") == 0);
    gpy_function_free(poly);
    CHECK(gpy_get_function(g, "missing") == NULL && strcmp(gpy_last_error_info(g)->type, "NameError") == 0);

    /* host functions */
    double scale = 2.0;
    CHECK(gpy_define(g, "add_scaled", add_scaled, &scale) == 0);
    CHECK(gpy_define(g, "greet", greet, NULL) == 0);
    CHECK(gpy_define(g, "fails_quietly", fails_quietly, NULL) == 0);
    CHECK(gpy_run_string(g, "s = add_scaled(1.5, 2)\ng = greet('C')\n", NULL) == 0);
    CHECK(gpy_get_float(g, "s", &h2) == 0 && h2 == 7.0);
    CHECK(strcmp(gpy_get_str(g, "g"), "hello C") == 0);
    CHECK(gpy_run_string(g, "try:\n    add_scaled('x', 1)\nexcept TypeError as e:\n    caught = str(e)\n", NULL) == 0);
    CHECK(strcmp(gpy_get_str(g, "caught"), "add_scaled(float, int)") == 0);
    CHECK(gpy_run_string(g, "fails_quietly()\n", "q.gpy") == 1);
    CHECK(strstr(gpy_last_error(g), "RuntimeError: host function 'fails_quietly' failed (returned 7)") != NULL);

    /* arrays in, zero-copy: the script writes the host's memory */
    double data[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    deleted = 0;
    CHECK(gpy_set_dlpack_versioned(g, "a", lend(data, shape, 2, 0)) == 0);
    CHECK(gpy_run_string(g, "import numpy as np\na[1, :] *= 10\nt = float(a.sum())\nv = a[:, 1]\ndel a\n", NULL) == 0);
    CHECK(data[3] == 40 && data[5] == 60 && data[0] == 1);
    CHECK(gpy_get_float(g, "t", &h2) == 0 && h2 == 156.0);
    CHECK(deleted == 0); /* the view v still holds the memory */
    CHECK(gpy_run_string(g, "del v\n", NULL) == 0);
    CHECK(deleted == 1); /* exactly once, when the last view went */

    /* a read-only tensor is copied: the host's memory is untouched */
    deleted = 0;
    CHECK(gpy_set_dlpack_versioned(g, "ro", lend(data, shape, 2, DLPACK_FLAG_BITMASK_READ_ONLY)) == 0);
    CHECK(deleted == 1);
    CHECK(gpy_run_string(g, "ro[0, 0] = -1\nro0 = float(ro[0, 0])\n", NULL) == 0);
    CHECK(data[0] == 1);

    /* the legacy struct */
    DLManagedTensor* legacy = calloc(1, sizeof *legacy);
    legacy->deleter = count_delete_legacy;
    legacy->dl_tensor.data = data;
    legacy->dl_tensor.device.device_type = kDLCPU;
    legacy->dl_tensor.ndim = 1;
    legacy->dl_tensor.dtype.code = kDLFloat;
    legacy->dl_tensor.dtype.bits = 64;
    legacy->dl_tensor.dtype.lanes = 1;
    int64_t six = 6;
    legacy->dl_tensor.shape = &six;
    deleted = 0;
    CHECK(gpy_set_dlpack(g, "flat", legacy) == 0);
    CHECK(gpy_run_string(g, "m = int(flat.max())\nflat = None\n", NULL) == 0);
    CHECK(gpy_get_int(g, "m", &n) == 0 && n == 60);
    CHECK(deleted == 1);

    /* an unusable tensor is refused and still deleted once */
    DLManagedTensorVersioned* odd = lend(data, shape, 2, 0);
    odd->dl_tensor.dtype.lanes = 4;
    deleted = 0;
    CHECK(gpy_set_dlpack_versioned(g, "odd", odd) != 0);
    CHECK(strcmp(gpy_last_error_info(g)->type, "BufferError") == 0);
    CHECK(deleted == 1);
    DLManagedTensorVersioned* gpu = lend(data, shape, 2, 0);
    gpu->dl_tensor.device.device_type = kDLCUDA;
    deleted = 0;
    CHECK(gpy_set_dlpack_versioned(g, "gpu", gpu) != 0);
    CHECK(strstr(gpy_last_error(g), "CPU backend") != NULL);
    CHECK(deleted == 1);

    /* arrays out, zero-copy: the tensor views the script's array */
    CHECK(gpy_run_string(g, "out = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]\n", NULL) == 0);
    DLManagedTensorVersioned* o = gpy_get_dlpack_versioned(g, "out");
    CHECK(o != NULL);
    if (o) {
        CHECK(o->dl_tensor.ndim == 2 && o->dl_tensor.shape[0] == 3 && o->dl_tensor.shape[1] == 2);
        CHECK(o->dl_tensor.dtype.code == kDLInt && o->dl_tensor.dtype.bits == 32);
        CHECK(o->dl_tensor.strides[0] == 4 && o->dl_tensor.strides[1] == 2);
        const int32_t* p = (const int32_t*)o->dl_tensor.data;
        CHECK(p[0] == 0 && p[2] == 2 && p[4] == 4 && p[8 + 2] == 10);
        /* the tensor keeps the memory after the script lets go */
        CHECK(gpy_run_string(g, "del out\n", NULL) == 0);
        CHECK(p[8 + 2] == 10);
        o->deleter(o);
    }
    DLManagedTensor* ol = gpy_get_dlpack(g, "t");
    CHECK(ol == NULL && strcmp(gpy_last_error_info(g)->type, "TypeError") == 0);
    CHECK(gpy_get_dlpack(g, "nothing") == NULL && strcmp(gpy_last_error_info(g)->type, "NameError") == 0);

    /* arrays through gpy_value: in to a host function, out of gpy_get */
    CHECK(gpy_define(g, "array_sum", array_sum, NULL) == 0);
    CHECK(gpy_run_string(g, "tot = array_sum(np.ones((4, 5)))\n", NULL) == 0);
    CHECK(gpy_get_float(g, "tot", &h2) == 0 && h2 == 20.0);
    CHECK(gpy_define(g, "identity", identity, NULL) == 0);
    CHECK(gpy_run_string(g, "src = np.arange(5.0)\nsame = identity(src)\nsame[0] = 7\nprint(float(src[0]), same.sum())\n", NULL) == 0);
    CHECK(strstr(out_text, "7.0 17.0\n") != NULL);
    CHECK(gpy_run_string(g, "del src, same\n", NULL) == 0);
    CHECK(gpy_get(g, "ro", &v) == 0 && v.kind == GPY_ARRAY && v.array->dl_tensor.ndim == 2);
    CHECK(((double*)v.array->dl_tensor.data)[0] == -1);
    gpy_value_release(&v);
    CHECK(v.kind == GPY_NONE && v.array == NULL);

    /* one call at a time: a second thread is turned away, touching nothing */
    CHECK(gpy_define(g, "hold", hold, NULL) == 0);
    pthread_t runner;
    pthread_create(&runner, NULL, run_held, g);
    while (!__atomic_load_n(&inside, __ATOMIC_SEQ_CST)) {
    }
    CHECK(gpy_set_int(g, "intruder", 1) == -2);
    CHECK(strstr(gpy_last_error(g), "another thread") != NULL);
    CHECK(strcmp(gpy_last_error_info(g)->type, "RuntimeError") == 0);
    CHECK(gpy_run_string(g, "x = 1\n", NULL) == -2);
    __atomic_store_n(&release_it, 1, __ATOMIC_SEQ_CST);
    pthread_join(runner, NULL);
    CHECK(held_rc == 0);
    CHECK(gpy_get_int(g, "after", &n) == 0 && n == 1);
    CHECK(strcmp(gpy_last_error(g), "") == 0);
    CHECK(gpy_get_int(g, "intruder", &n) != 0);

    /* streams need a GPU */
    CHECK(gpy_use_stream(g, NULL) != 0);

    /* an interrupt raised before a run is for that run only */
    gpy_interrupt(g);
    CHECK(gpy_run_string(g, "k = 0\nfor i in range(10000):\n    k += 1\n", NULL) == 0);

    gpy_free(g);
    gpy_free(NULL);

    /* a memory budget for all of an interpreter's arrays */
    gpy_config small;
    gpy_config_init(&small);
    small.backend = "cpu";
    small.max_memory_bytes = 100000;
    small.err = capture_err;
    gpy_interp* b = gpy_new(&small);
    CHECK(b != NULL);
    CHECK(gpy_run_string(b, "import numpy as np\nx = np.ones(10000)\nx[0] = 2\n", NULL) == 0);
    CHECK(gpy_run_string(b, "y = np.ones(10000)\ny[0] = 2\n", NULL) == 1);
    CHECK(strcmp(gpy_last_error_info(b)->type, "MemoryError") == 0);
    CHECK(strstr(gpy_last_error(b), "max_memory_bytes") != NULL);
    gpy_free(b);
    small.max_memory_bytes = -1;
    CHECK(gpy_new(&small) == NULL);
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    else printf("test_c_api: all checks passed\n");
    return failures ? 1 : 0;
}
