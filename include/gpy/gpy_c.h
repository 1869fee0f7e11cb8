/* gpy's C ABI: the embedding API (gpy.h) for C, Fortran, Rust, Julia and
 * Python's ctypes. Every function takes the interpreter it works on; an
 * interpreter runs one call at a time (a second thread calling into it while
 * a call runs gets an error, not a race) and may move between threads.
 *
 * Errors: functions that can fail return 0 on success and nonzero on
 * failure (-2: another thread is inside the interpreter; nothing was done); gpy_last_error(g) then says why, as
 * "file:line:col: error: Type: message" (the location when known), and
 * gpy_last_error_info(g) gives the parts. Strings gpy returns stay valid
 * until the next call on the same interpreter.
 *
 * Arrays cross as DLPack tensors without copying (include/gpy/dlpack.h):
 * set takes ownership and calls the tensor's deleter exactly once, when the
 * script's last view of the memory is gone (at gpy_free at the latest); get
 * hands out a tensor the caller must delete (call its deleter) exactly once,
 * which keeps the memory alive until then. */
#ifndef GPY_C_H
#define GPY_C_H

#include <stddef.h>
#include <stdint.h>

#include "gpy/dlpack.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpy_interp gpy_interp;

/* Receives printed text, one or more whole lines at a time (a line longer
 * than 64 KiB in pieces). */
typedef void (*gpy_text_fn)(void* user, const char* text, size_t len);

typedef struct gpy_config {
    const char* backend;   /* "auto" (NULL), "cpu" or "cuda" */
    int device;            /* CUDA device */
    const char* cache_dir; /* kernel cache folder; NULL: $GPY_CACHE_DIR, else ~/.cache/gpy */
    gpy_text_fn out;       /* print(); NULL: stdout */
    void* out_user;
    gpy_text_fn err;       /* tracebacks and diagnostics; NULL: stderr */
    void* err_user;
    int64_t max_array_bytes;  /* one array's bytes (more: MemoryError); 0: unlimited */
    int64_t max_memory_bytes; /* all its arrays together (more: MemoryError); 0: unlimited */
    int lazy;              /* 1 (default): arrays are computed when observed */
    int fast_math;
} gpy_config;

/* The defaults, to change before gpy_new. */
void gpy_config_init(gpy_config* cfg);

/* A new interpreter; NULL on failure (backend "cuda" without a GPU, a bad
 * setting), with the reason in gpy_last_error(NULL) on this thread. */
gpy_interp* gpy_new(const gpy_config* cfg);
void gpy_free(gpy_interp* g);

/* Runs a program. 0 on success; otherwise 1 for an exception, 2 for a
 * syntax error, or the code passed to sys.exit (0 included: then
 * gpy_last_error is empty). `name` is the file name in errors (NULL: "<string>"). */
int gpy_run_string(gpy_interp* g, const char* source, const char* name);
int gpy_run_file(gpy_interp* g, const char* path);

/* The last failure on g (NULL g: the last gpy_new failure on this thread);
 * "" when the last call succeeded. */
const char* gpy_last_error(gpy_interp* g);

typedef struct gpy_error {
    const char* type;    /* "ValueError", "SyntaxError", ... ("" when none) */
    const char* message;
    const char* file;    /* innermost frame of the user's code; "" when unknown */
    int line, column;    /* 0 when unknown */
} gpy_error;
/* (The traceback: gpy_last_error_frames / gpy_last_error_frame below.) */
const gpy_error* gpy_last_error_info(gpy_interp* g);
/* The last error's traceback: how many frames, and frame k (0: the
 * outermost call; the last: where it was raised). Nonzero for k out of range. */
int gpy_last_error_frames(gpy_interp* g);
int gpy_last_error_frame(gpy_interp* g, int k, const char** function, const char** file, int* line, int* column);

/* ---- values ---- */

typedef enum gpy_kind { GPY_NONE = 0, GPY_BOOL, GPY_INT, GPY_FLOAT, GPY_STR, GPY_ARRAY, GPY_OTHER } gpy_kind;

/* A value crossing the boundary. Going in (gpy_set, gpy_call's arguments,
 * a host function's result), `s` is copied and `array` owned by gpy. Coming
 * out (gpy_get, gpy_call's result, a host function's arguments), `s` is
 * valid until the next call on the interpreter and `array` belongs to the
 * receiver (a host function's argument arrays: until it returns; gpy
 * deletes them then). */
typedef struct gpy_value {
    int kind;                        /* gpy_kind */
    int64_t i;                       /* GPY_BOOL (0 or 1), GPY_INT */
    double f;                        /* GPY_FLOAT */
    const char* s;                   /* GPY_STR: UTF-8, NUL-terminated */
    DLManagedTensorVersioned* array; /* GPY_ARRAY */
} gpy_value;

/* Binds a global of __main__. */
int gpy_set(gpy_interp* g, const char* name, const gpy_value* v);
int gpy_set_int(gpy_interp* g, const char* name, int64_t v);
int gpy_set_float(gpy_interp* g, const char* name, double v);
int gpy_set_str(gpy_interp* g, const char* name, const char* v);

/* Reads a global: 0 and *out set; nonzero when unbound (NameError) or of a
 * type with no gpy_value form (TypeError; kind GPY_OTHER). An array is
 * computed first and comes out as a new tensor. */
int gpy_get(gpy_interp* g, const char* name, gpy_value* out);
/* 0 and *out set when the global is an int/bool (a float: TypeError). */
int gpy_get_int(gpy_interp* g, const char* name, int64_t* out);
/* 0 and *out set when the global is a number. */
int gpy_get_float(gpy_interp* g, const char* name, double* out);
/* The global as str() would not: only a str global; NULL otherwise. */
const char* gpy_get_str(gpy_interp* g, const char* name);

/* Calls the global callable `name`; its result in *result (NULL: dropped). */
int gpy_call(gpy_interp* g, const char* name, const gpy_value* args, size_t nargs, gpy_value* result);

/* A handle to the callable bound to `name` now (NULL when unbound): calls
 * through it reach that function even after the script rebinds the name.
 * Free it with gpy_function_free before gpy_free. */
typedef struct gpy_function gpy_function;
gpy_function* gpy_get_function(gpy_interp* g, const char* name);
int gpy_call_function(gpy_interp* g, gpy_function* f, const gpy_value* args, size_t nargs, gpy_value* result);
void gpy_function_free(gpy_function* f);

/* Deletes an array a gpy_value holds (calls its deleter) and clears it. */
void gpy_value_release(gpy_value* v);

/* ---- host functions ---- */

/* A function of the host: fills *result (kind GPY_NONE by default) and
 * returns 0, or calls gpy_raise and returns nonzero. */
typedef int (*gpy_host_fn)(void* user, gpy_interp* g, const gpy_value* args, size_t nargs, gpy_value* result);
/* Binds `name` in __main__ to a function calling fn(user, ...). */
int gpy_define(gpy_interp* g, const char* name, gpy_host_fn fn, void* user);
/* From inside a host function: the exception the script sees when it
 * returns nonzero. `type` is a built-in exception's name ("ValueError");
 * another name (or NULL) means RuntimeError. */
void gpy_raise(gpy_interp* g, const char* type, const char* message);

/* ---- arrays (DLPack) ---- */

/* Binds `name` to an array over the tensor's memory (no copy; host memory
 * on a GPU interpreter, or a read-only tensor, is copied and its deleter
 * called at once). Ownership passes to gpy even when this fails. */
int gpy_set_dlpack(gpy_interp* g, const char* name, DLManagedTensor* t);
int gpy_set_dlpack_versioned(gpy_interp* g, const char* name, DLManagedTensorVersioned* t);
/* A tensor over the global array `name` (computed first; device memory on a
 * GPU interpreter, whose queued work has finished unless gpy_use_stream
 * put it on the caller's stream); NULL on failure. */
DLManagedTensor* gpy_get_dlpack(gpy_interp* g, const char* name);
DLManagedTensorVersioned* gpy_get_dlpack_versioned(gpy_interp* g, const char* name);

/* Work on the current device goes to the host's CUDA stream (a CUstream or
 * cudaStream_t; NULL: gpy's own again) from now on: the host orders its
 * work against gpy's through it. Nonzero on a CPU interpreter. */
int gpy_use_stream(gpy_interp* g, void* cuda_stream);

/* Async-signal-safe, from any thread: the running call raises
 * KeyboardInterrupt at its next loop iteration or call. */
void gpy_interrupt(gpy_interp* g);

/* "0.1.0" */
const char* gpy_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GPY_C_H */
