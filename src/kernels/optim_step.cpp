// The kernel entries of the fused optimizer updates (optim_step.h).
#include "kernels/optim_step.h"

namespace ember::kernels {

DispatchStub<SgdMomentumStepFn> sgd_momentum_step_stub("SGD step");
DispatchStub<AdamStepFn> adam_step_stub("Adam step");

}  // namespace ember::kernels
