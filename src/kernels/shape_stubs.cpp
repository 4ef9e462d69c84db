// Definitions of the shape-op stubs declared in shape_stubs.h.
#include "kernels/shape_stubs.h"

namespace ember::kernels {

DispatchStub<ScatterGatherFn> scatter_gather_stub("gather/scatter");
DispatchStub<CheckIndicesFn> check_indices_stub("index check");
DispatchStub<IndexRangeFn> index_range_stub("index range");
DispatchStub<SortFn> sort_stub("sort");

}  // namespace ember::kernels
