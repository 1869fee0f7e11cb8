// The CUDA translation unit of a kernel: kCudaPrelude + kCommonPrelude + the
// emitted body (whose entry points are __device__ functions over [begin, end)
// ranges), then extern "C" __global__ wrappers that map threads onto ranges.
// The CUDA backend compiles exactly this; so does the shadow compile in CI.
//
// Each wrapper takes the launch's ptrs/meta/scalars by value in one
// __grid_constant__ struct (kernel parameter space: no copy to the device per
// launch, and reads are served by the constant cache):
//   NAME_grid(args, n)                      thread i computes [i, i + 1) of n
//   NAME_part_grid(args, inner, chunk, nparts, partials)
//                                           (full reductions) thread p reduces
//                                           [p*chunk, (p+1)*chunk) into partial p
//   NAME_merge_grid(nparts, group, nout, in, out)
//                                           thread g combines partials
//                                           [g*group, (g+1)*group) into out[g]
//   NAME_finish_grid(args, nparts, partials) one thread combines the partials
//   NAME_vec4_grid(args, n)                 (KernelSource::vec4_align) four
//                                           elements per step, vector loads
//   NAME_reduce(args, nrows, inner, G, nsplit, out_parts, in_parts, in_split)
//                                           (KernelSource::cooperative) teams
//                                           of G threads per (row, part)
#pragma once

#include <string>

#include "codegen/kernel.h"

namespace gpy {

std::string cuda_kernel_source(const KernelSource& k);
// The same without the preludes (for --dump-kernels).
std::string cuda_kernel_text(const KernelSource& k);

}  // namespace gpy
