/* DLPack for gpy: the legacy structs from the installed dlpack header
 * (Debian: libdlpack-dev), and the versioned form of DLPack 1.x that current
 * CuPy and PyTorch exchange, declared here only where that header is older
 * than 1.0 (Debian's is 0.6). The layout is DLPack's ABI, field for field. */
#ifndef GPY_DLPACK_H
#define GPY_DLPACK_H

#include <dlpack/dlpack.h>

#ifndef DLPACK_MAJOR_VERSION
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void* manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned* self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
/* DLPack 1.0's type code for bool (one byte per element). */
#define GPY_DL_BOOL 6

#ifdef __cplusplus
}
#endif
#else
#define GPY_DL_BOOL kDLBool
#endif

#endif /* GPY_DLPACK_H */
