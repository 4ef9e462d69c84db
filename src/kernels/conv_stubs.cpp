// Definitions of the convolution and pooling stubs declared in conv_stubs.h.
#include "kernels/conv_stubs.h"

namespace ember::kernels {

DispatchStub<Im2ColFn> im2col_stub("im2col");
DispatchStub<Col2ImFn> col2im_stub("col2im");
DispatchStub<MaxPool2dFn> max_pool2d_stub("max_pool2d");

}  // namespace ember::kernels
