// The dropout layers' shared part (detail::DropoutNdImpl): the check of p and the printing.
#include "ember/nn/dropout.h"

#include "core/check.h"

namespace ember::nn::detail {

template <class Derived>
void DropoutNdImpl<Derived>::reset() {
  const double p = options.p();
  EMBER_CHECK_T(ValueError, p >= 0.0 && p <= 1.0, "[", this->name(),
                "] dropout probability has to be between 0 and 1, but got ", p);
}

template <class Derived>
void DropoutNdImpl<Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::" << this->name() << "(p=" << options.p()
         << ", inplace=" << options.inplace() << ")";
}

#define EMBER_INSTANTIATE_DROPOUT_LAYER(Name, function, FuncOptions, Input) \
  template class DropoutNdImpl<Name##Impl>;
EMBER_DROPOUT_LAYERS(EMBER_INSTANTIATE_DROPOUT_LAYER)
#undef EMBER_INSTANTIATE_DROPOUT_LAYER

}  // namespace ember::nn::detail
