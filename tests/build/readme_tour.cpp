// The README tour, compiled and run by CTest (build.readme_tour). Every line of every ```cpp block
// in README.md appears in this file (build.readme_in_sync checks it), so the README's code is
// real. The checks between the README lines hold with and without a GPU, and in CPU-only builds.
// The README's lines are kept as the README has them (its comment columns included), so
// clang-format leaves this file alone.
// clang-format off
#include <ember/ember.h>
#include <ember/nn/parallel/distributed.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>

using namespace ember;

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "readme_tour: FAILED: %s\n", what);
    ++failures;
  }
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The message of the error thrown when asking for a GPU that is not there, per build and machine.
void expect_no_such_gpu(const std::string& msg) {
  if (!cuda::built_with_cuda()) {
    expect(msg == "[ember] built without CUDA support; reconfigure with -DEMBER_CUDA=ON (needs the CUDA "
                  "toolkit) to use cuda devices, or use ember::try_gpu() to fall back to the CPU",
           "CPU-only build message");
  } else if (!cuda::is_available()) {
    expect(starts_with(msg, "No CUDA GPUs are available"), "no-GPU message");
  } else {
    expect(contains(msg, "invalid device ordinal"), "invalid device ordinal message");
  }
}

void devices() {
  std::cout << "-- devices\n";
  Device cpu("cpu"), gpu("cuda"), gpu1("cuda:1");       // just names: no GPU needed
  std::cout << cpu << " " << gpu << " " << gpu1 << "\n";  // cpu cuda cuda:1
  std::cout << gpu1.type() << " " << gpu1.index() << "\n";  // cuda 1
  std::cout << (Device("cuda") == Device("cuda:0")) << "\n";  // 0: "the current GPU" is not cuda:0

  std::cout << cuda::is_available() << " " << cuda::device_count() << "\n";  // 1 2 on a two-GPU machine
  std::cout << cuda::unavailable_reason() << "\n";  // "" when a GPU is usable, else why not

  expect(cpu.str() == "cpu" && gpu.str() == "cuda" && gpu1.str() == "cuda:1", "device names");
  expect(gpu1.is_cuda() && gpu1.index() == 1, "cuda:1 parts");
  expect(!(Device("cuda") == Device("cuda:0")), "cuda != cuda:0");
  expect(cuda::is_available() == (cuda::device_count() > 0), "is_available matches device_count");
  expect(cuda::is_available() == cuda::unavailable_reason().empty(), "unavailable_reason");
}

void try_gpus() {
  std::cout << "-- try_gpu\n";
  std::cout << try_gpu() << " " << try_gpu(10) << "\n";  // cuda:0 cpu   (cpu cpu without a GPU)
  for (Device d : try_all_gpus()) std::cout << d << " ";  // cuda:0 cuda:1 ... or just cpu
  std::cout << "\n";

  expect(try_gpu(10) == Device::cpu(), "try_gpu(10) is the cpu");
  expect(try_gpu() == (cuda::device_count() > 0 ? Device("cuda:0") : Device("cpu")), "try_gpu()");
  expect(try_all_gpus().size() == static_cast<size_t>(std::max(cuda::device_count(), 1)),
         "try_all_gpus size");
}

void tensors_on_devices() {
  std::cout << "-- tensors on a device\n";
  Tensor x = tensor({0, 1, 2, 3});  // int64, on the cpu by default
  std::cout << x.device() << " " << x.dtype() << "\n";  // cpu Long  (int64, named as in c10)

  Tensor y = ones({2, 3}, try_gpu());  // created directly on the GPU when there is one
  std::cout << y.device() << "\n";     // cuda:0, or cpu without a GPU

  Device dev = try_gpu();  // a device handle, not a hard-coded "cuda:0"
  Tensor r = rand({2, 2}, TensorOptions().device(dev).dtype(kFloat64));
  Tensor z = y * 2 + 1;  // computed where y lives; z lives there too
  std::cout << z.device() << " " << z.sum().item<float>() << "\n";  // cuda:0 18, or cpu 18

  expect(x.device() == Device("cpu") && x.dtype() == kInt64, "x on cpu, int64");
  expect(y.device() == try_gpu(), "y on try_gpu()");
  expect(r.device() == dev && r.dtype() == kFloat64, "r device and dtype");
  expect(z.device() == y.device() && z.sum().item<float>() == 18.0f, "z = y * 2 + 1");
}

void moving() {
  std::cout << "-- moving\n";
  Tensor a = ones({2, 3});
  Tensor b = a.to(try_gpu());  // a copy on the GPU; a stays on the cpu
  Tensor c = a.to("cpu");      // nothing to do: the same tensor, no copy
  std::cout << a.device() << " " << b.device() << " " << c.is_same(a) << "\n";  // cpu cuda:0 1
  Tensor d = a.to(kFloat64);   // to() also converts dtypes
  if (cuda::is_available()) {
    Tensor g = a.cuda();       // = a.to("cuda"): the current GPU, cuda:0 unless changed
    Tensor h = g.cpu();        // back to host memory
    std::cout << g.device() << " " << h.device() << "\n";  // cuda:0 cpu
    expect(g.device() == Device("cuda:0") && h.device() == Device("cpu"), "cuda()/cpu()");
    expect(g.to("cuda:0").is_same(g), "to() on the same GPU is a no-op");
  }

  expect(a.device() == Device("cpu") && b.device() == try_gpu(), "a stays, b moves");
  expect(c.is_same(a) && a.to(a.device()).is_same(a), "to() returns the same tensor");
  expect(d.dtype() == kFloat64 && !d.is_same(a), "to(kFloat64) copies");
}

void errors() {
  std::cout << "-- errors\n";
  Tensor x = ones({2, 3});
  try {
    Tensor z = x.cuda(1);  // needs a second GPU
    std::cout << z.device() << "\n";  // cuda:1 on a machine with two GPUs
    expect(cuda::device_count() >= 2, "cuda(1) succeeded only with two GPUs");
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
    expect_no_such_gpu(e.what());
  }

  if (cuda::is_available()) {
    Tensor g = ones({2, 3}, "cuda:0");
    try {
      Tensor bad = g + x;  // one operand on cuda:0, the other on the cpu
    } catch (const Error& e) {
      std::cout << e.what() << "\n";
      expect(starts_with(e.what(), "Expected all tensors to be on the same device"),
             "mixed-device message");
    }
  }

  try {
    Device bad("gpu:0");
  } catch (const ValueError& e) {
    std::cout << e.what() << "\n";
    expect(std::string(e.what()) == "Expected one of cpu, cuda device type at start of device string: gpu",
           "bad device string message");
  }
}

void shared_memory() {
  std::cout << "-- from_blob\n";
  float buf[5] = {1, 1, 1, 1, 1};
  Tensor t = from_blob(buf, {5});  // float32 over buf: no copy
  t.add_(2);                        // buf is now {3, 3, 3, 3, 3}
  buf[0] = 5;                       // and t sees the change
  std::cout << t << "\n";           // tensor([5., 3., 3., 3., 3.])

  expect(buf[1] == 3.0f && t[0].item<float>() == 5.0f, "from_blob shares memory both ways");
  expect(t.str() == "tensor([5., 3., 3., 3., 3.])", "from_blob print");
}

void printing() {
  std::cout << "-- printing\n";
  Tensor y = ones({2, 3}, try_gpu());
  std::cout << y << "\n";
  // tensor([[1., 1., 1.],
  //         [1., 1., 1.]], device='cuda:0')      (no device= part on the cpu)
  std::cout << arange(6).view({2, 3}) << "\n";
  // tensor([[0, 1, 2],
  //         [3, 4, 5]])

  std::string cpu_repr = "tensor([[1., 1., 1.],\n        [1., 1., 1.]])";
  std::string expected = y.is_cpu() ? cpu_repr
                                    : "tensor([[1., 1., 1.],\n        [1., 1., 1.]], device='" +
                                          y.device().str() + "')";
  expect(y.str() == expected, "ones print");
  expect(arange(6).view({2, 3}).str() == "tensor([[0, 1, 2],\n        [3, 4, 5]])", "arange print");
}

// README: "Training on the device".
void training() {
  auto net = nn::Sequential(nn::Linear(3, 1));
  net->to(try_gpu());                                 // in place, like Module.to()
  Tensor out = net(ones({2, 3}, try_gpu()));         // grad_fn=<AddmmBackward0>
  optim::SGD sgd(net->parameters(), /*lr=*/0.1);
  optim::StepLR schedule(sgd, /*step_size=*/10);     // lr x 0.1 every 10 epochs
  Tensor loss = nn::functional::mse_loss(out, zeros({2, 1}, try_gpu()));
  sgd.zero_grad();
  loss.backward();                                   // gradients on the parameters' device
  nn::utils::clip_grad_norm_tensor_(net->parameters(), 1.0);  // norm <= 1, no GPU wait
  sgd.step();
  schedule.step();                                   // once per epoch
  save_safetensors(net->state_dict(), "net.safetensors");  // readable by PyTorch's safetensors

  expect(out.grad_fn()->name() == "AddmmBackward0", "Linear output grad_fn");
  expect(net->parameters()[0].device() == try_gpu(), "parameters on the device");
  expect(net->parameters()[0].grad().defined(), "weight grad after backward");
  expect(load_safetensors("net.safetensors").size() == 2, "state dict saved");
  expect(sgd.param_groups()[0].options().get_lr() == 0.1, "no decay before step_size epochs");
  std::remove("net.safetensors");
}

// What Python would have saved: the model's state dict, and a checkpoint holding it.
std::vector<char> python_files() {
  auto trained = nn::Sequential(nn::Linear(5, 8), nn::Tanh(), nn::Linear(8, 3));
  nn::init::constant_(trained->named_parameters()["2.bias"], 0.5);
  save(trained, "model.pt");
  Dict<IValue, IValue> state, checkpoint;
  for (const auto& p : trained->named_parameters()) state.insert(p.key(), p.value().detach());
  checkpoint.insert("model", state);
  checkpoint.insert("epoch", int64_t{3});
  return pickle_save(checkpoint);
}

void python_model() {
  std::vector<char> bytes = python_files();
  auto net = nn::Sequential(nn::Linear(5, 8), nn::Tanh(), nn::Linear(8, 3));
  load(net, "model.pt");                             // a state dict, names "0.weight", ...
  expect(net->named_parameters()["2.bias"].sum().item<float>() == 1.5f, "state dict loaded");
  // or from a checkpoint {"model": ..., "epoch": 3}:
  IValue ckpt = pickle_load(bytes);                  // std::vector<char> of the file
  net->load_state_dict(ckpt.toGenericDict().at("model").toGenericDict());
  int64_t epoch = ckpt.toGenericDict().at("epoch").toInt();
  save(net, "from_cpp.pt");                          // Python: model.load_state_dict(torch.load(...))
  expect(epoch == 3, "checkpoint entries read");
  std::vector<Tensor> back;
  load(back, "from_cpp.pt");
  expect(back.empty(), "a module's file has named entries, not a list");
  std::remove("model.pt");
  std::remove("from_cpp.pt");
}

// One process standing for the ranks ember-run would start: their variables, for a world of one.
void several_processes() {
  if (!distributed::is_gloo_available()) return;
  setenv("RANK", "0", 1);
  setenv("WORLD_SIZE", "1", 1);
  setenv("MASTER_ADDR", "127.0.0.1", 1);
  setenv("MASTER_PORT", "0", 1);  // rank 0's store picks a free port
namespace dist = ember::distributed;
dist::init_process_group("gloo");               // env://, from ember-run's variables
Tensor grad = ember::ones({4}) * (dist::get_rank() + 1);
dist::all_reduce(grad, dist::ReduceOp::AVG);    // every rank now holds the mean
  expect(grad.sum().item<float>() == 4.0f, "the mean over one rank is its own gradient");
auto net = nn::Sequential(nn::Linear(4, 8), nn::ReLU(), nn::Linear(8, 2));  // on every rank
nn::parallel::DistributedDataParallel ddp(net);        // rank 0's weights everywhere
optim::SGD opt(ddp->parameters(), /*lr=*/0.1);
Tensor x = randn({16, 4}), y = randn({16, 2});         // this rank's share of a batch
opt.zero_grad();
nn::functional::mse_loss(ddp(x), y).backward();        // gradients averaged over the ranks
opt.step();                                            // identical on every rank
  expect(ddp->module() == net.ptr() && net[0]->as<nn::Linear>()->weight.grad().defined(),
         "DDP trains the module it wraps");
  dist::destroy_process_group();
}

}  // namespace

int main() {
  devices();
  try_gpus();
  tensors_on_devices();
  moving();
  errors();
  shared_memory();
  printing();
  training();
  python_model();
  several_processes();
  if (failures != 0) {
    std::fprintf(stderr, "readme_tour: %d check(s) failed\n", failures);
    return 1;
  }
  std::cout << "readme_tour: all checks passed\n";
  return 0;
}
