// A LibTorch program: it includes <torch/torch.h> and speaks only LibTorch's names, and builds
// against ember unchanged (checked by install_test.cmake, MODE=torch).
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor x = torch::ones({2, 3}, torch::dtype(torch::kFloat32).requires_grad(true));
  torch::Tensor y = (x * 2).sum();
  y.backward();
  TORCH_CHECK(x.grad().defined(), "backward() left no gradient");
  std::cout << "torch sum=" << y.item<float>() << " grad=" << x.grad()[0][0].item<float>()
            << " dtype=" << x.dtype() << " scalar=" << x.scalar_type() << "\n";
  return 0;
}
