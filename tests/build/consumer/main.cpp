// Uses an installed ember: make a tensor, reduce it, print both (checked by install_test.cmake).
#include <ember/ember.h>

#include <iostream>

int main() {
  ember::Tensor x = ember::ones({2, 3});
  std::cout << "ember " << ember::version() << "\n";
  std::cout << "sum=" << x.sum().item<float>() << " device=" << x.device() << "\n";
  std::cout << x << "\n";
  return x.sum().item<float>() == 6.0f ? 0 : 1;
}
