// ember-demo: README's main job. Prints the device table, replays the "use GPUs" tutorial in C++
// (devices, try_gpu, tensors created and moved, the two-devices error, a Linear on the device),
// then trains a digit classifier on the best device and reports its test accuracy. With
// --nproc N it starts itself N times under ember-run and trains data-parallel
// (nn::parallel::DistributedDataParallel over Gloo), each rank on its share of every batch.
// Usage: ember-demo [--device cpu|cuda|cuda:N] [--model mlp|cnn] [--epochs N] [--batch-size N]
//                   [--lr X] [--data DIR] [--save PATH] [--load PATH] [--seed N] [--ascii]
//                   [--nproc N]
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "device_table.h"
#include "ember/ember.h"
#include "ember/nn.h"
#include "ember/nn/parallel/distributed.h"

extern const unsigned char ember_digits_train_images_idx3_ubyte_gz[];
extern const size_t ember_digits_train_images_idx3_ubyte_gz_size;
extern const unsigned char ember_digits_train_labels_idx1_ubyte_gz[];
extern const size_t ember_digits_train_labels_idx1_ubyte_gz_size;
extern const unsigned char ember_digits_t10k_images_idx3_ubyte_gz[];
extern const size_t ember_digits_t10k_images_idx3_ubyte_gz_size;
extern const unsigned char ember_digits_t10k_labels_idx1_ubyte_gz[];
extern const size_t ember_digits_t10k_labels_idx1_ubyte_gz_size;

namespace {

using namespace ember;
namespace F = nn::functional;

struct Options {
  std::optional<Device> device;  // default: try_gpu()
  std::string model = "mlp";
  int epochs = 20;
  int64_t batch_size = 32;
  double lr = 0.05;
  std::string data_dir;  // empty: the embedded digits
  std::string save_path, load_path;
  uint64_t seed = 0;
  bool ascii = false;
  int nproc = 0;  // 0: this process alone; N: N ranks under ember-run
};

const char* kUsage =
    "usage: ember-demo [options]\n"
    "  --device D       cpu, cuda or cuda:N (default: the best one, try_gpu())\n"
    "  --model M        mlp (default) or cnn (LeNet-style)\n"
    "  --epochs N       training epochs (default 20)\n"
    "  --batch-size N   samples per step (default 32)\n"
    "  --lr X           SGD learning rate, momentum 0.9 (default 0.05)\n"
    "  --data DIR       MNIST / Fashion-MNIST IDX files (train-images-idx3-ubyte[.gz], ...)\n"
    "                   instead of the built-in 8x8 digits\n"
    "  --save PATH      write the trained weights (safetensors)\n"
    "  --load PATH      evaluate saved weights instead of training\n"
    "  --seed N         random seed (default 0)\n"
    "  --ascii          plain ASCII table borders\n"
    "  --nproc N        train data-parallel on N processes of this machine (through\n"
    "                   ember-run), the batch split between them; on the CPU unless\n"
    "                   --device cuda (rank r on GPU r modulo the GPUs)\n";

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw ValueError("ember-demo: " + arg + " needs a value (try --help)");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--device") o.device = Device(value());
    else if (arg == "--model") o.model = value();
    else if (arg == "--epochs") o.epochs = std::stoi(value());
    else if (arg == "--batch-size") o.batch_size = std::stoll(value());
    else if (arg == "--lr") o.lr = std::stod(value());
    else if (arg == "--data") o.data_dir = value();
    else if (arg == "--save") o.save_path = value();
    else if (arg == "--load") o.load_path = value();
    else if (arg == "--seed") o.seed = std::stoull(value());
    else if (arg == "--ascii") o.ascii = true;
    else if (arg == "--nproc") o.nproc = std::stoi(value());
    else throw ValueError("ember-demo: unknown argument '" + arg + "' (try --help)");
  }
  if (o.model != "mlp" && o.model != "cnn")
    throw ValueError("ember-demo: --model must be mlp or cnn, got '" + o.model + "'");
  if (o.nproc < 0) throw ValueError("ember-demo: --nproc must be 1 or more");
  // Data-parallel ranks default to the CPU: ember's one group is Gloo's, which copies CUDA
  // tensors through the host.
  if (o.nproc > 0 && !o.device) o.device = Device("cpu");
  return o;
}

// ---- part 1: the tutorial, replayed
void section(const std::string& title) { std::cout << "\n== " << title << " ==\n"; }

void tour() {
  section("Devices (the tutorial's first steps)");
  std::cout << "Device(\"cpu\") = " << Device("cpu") << ", Device(\"cuda\") = " << Device("cuda")
            << ", Device(\"cuda:1\") = " << Device("cuda:1") << "\n";
  std::cout << "cuda::device_count() = " << cuda::device_count() << "\n";
  std::cout << "try_gpu() = " << try_gpu() << ", try_gpu(10) = " << try_gpu(10)
            << ", try_all_gpus() = [";
  std::vector<Device> all = try_all_gpus();
  for (size_t i = 0; i < all.size(); ++i) std::cout << (i ? ", " : "") << all[i];
  std::cout << "]\n";

  section("Tensors and where they live");
  Tensor x = tensor({1, 2, 3});
  std::cout << "x = tensor({1, 2, 3}):  x.device() = " << x.device() << "\n";
  Tensor X = ones({2, 3}, try_gpu());
  std::cout << "X = ones({2, 3}, try_gpu()):\n" << X << "\n";
  manual_seed(0);
  Tensor Y = rand({2, 3}, try_gpu(1));
  std::cout << "Y = rand({2, 3}, try_gpu(1)):\n" << Y << "\n";
  Tensor Z = X.to(try_gpu(1));
  std::cout << "Z = X.to(try_gpu(1)); Z + Y:\n" << Z + Y << "\n";
  std::cout << "Z.to(Z.device()).is_same(Z) = " << std::boolalpha << Z.to(Z.device()).is_same(Z)
            << "  (already there: no copy)\n";

  section("An op on two devices is an error");
  try {
    Tensor gpu = ones({2}, Device("cuda:0"));
    Tensor cpu = ones({2});
    std::cout << gpu + cpu << "\n";
  } catch (const Error& e) {
    std::cout << "caught ember::Error: " << e.what() << "\n";
  }

  section("A network on the device");
  auto net = nn::Sequential(nn::Linear(3, 1));
  net->to(try_gpu());
  std::cout << "net = " << *net << "\nnet->to(try_gpu()); net(X):\n" << net(X) << "\n";
  std::cout << "its weight lives on " << net->parameters()[0].device() << "\n";
}

// ---- part 2: training
struct Split {
  Tensor images;  // [N, 1, H, W] float32 in [0, 1]
  Tensor labels;  // [N] int64
};

// A split as a dataset whose batch is gathered with one index_select per tensor: get_batch
// overridden, LibTorch's way to batch without a Stack over single examples.
struct SplitDataset : data::datasets::BatchDataset<SplitDataset, data::Example<>> {
  explicit SplitDataset(Split split) : split(std::move(split)) {}
  data::Example<> get_batch(ArrayRef<size_t> indices) override {
    const Tensor rows = tensor(std::vector<int64_t>(indices.begin(), indices.end()));
    return {split.images.index_select(0, rows), split.labels.index_select(0, rows)};
  }
  std::optional<size_t> size() const override { return static_cast<size_t>(split.labels.size(0)); }

  Split split;
};

Split prepare(const Tensor& raw_images, const Tensor& raw_labels, double scale) {
  Tensor images = raw_images.to(kFloat32).unsqueeze(1) / scale;
  return {images, raw_labels.to(kInt64)};
}

// The IDX file `stem` in dir, gzip-compressed or not.
std::string idx_path(const std::string& dir, const std::string& stem) {
  for (const char* suffix : {"", ".gz"}) {
    std::string p = dir + "/" + stem + suffix;
    if (std::filesystem::exists(p)) return p;
  }
  throw ValueError("ember-demo: --data " + dir + " has no " + stem + " (or " + stem +
                   ".gz); expected MNIST-style IDX files there");
}

std::pair<Split, Split> load_data(const Options& o, std::string* name) {
  if (o.data_dir.empty()) {
    *name = "8x8 handwritten digits (built in, UCI via scikit-learn)";
    auto idx = [](const unsigned char* d, size_t n, const char* what) {
      return read_idx_bytes(d, n, what);
    };
    Tensor tri = idx(ember_digits_train_images_idx3_ubyte_gz,
                     ember_digits_train_images_idx3_ubyte_gz_size, "train images");
    Tensor trl = idx(ember_digits_train_labels_idx1_ubyte_gz,
                     ember_digits_train_labels_idx1_ubyte_gz_size, "train labels");
    Tensor tei = idx(ember_digits_t10k_images_idx3_ubyte_gz,
                     ember_digits_t10k_images_idx3_ubyte_gz_size, "test images");
    Tensor tel = idx(ember_digits_t10k_labels_idx1_ubyte_gz,
                     ember_digits_t10k_labels_idx1_ubyte_gz_size, "test labels");
    return {prepare(tri, trl, 16.0), prepare(tei, tel, 16.0)};
  }
  *name = o.data_dir;
  Tensor tri = read_idx(idx_path(o.data_dir, "train-images-idx3-ubyte"));
  Tensor trl = read_idx(idx_path(o.data_dir, "train-labels-idx1-ubyte"));
  Tensor tei = read_idx(idx_path(o.data_dir, "t10k-images-idx3-ubyte"));
  Tensor tel = read_idx(idx_path(o.data_dir, "t10k-labels-idx1-ubyte"));
  return {prepare(tri, trl, 255.0), prepare(tei, tel, 255.0)};
}

// An MLP, or a LeNet-style CNN whose classifier is sized for the images by a dry run.
nn::Sequential make_model(const std::string& kind, int64_t height, int64_t width) {
  if (kind == "mlp")
    return nn::Sequential(nn::Flatten(), nn::Linear(height * width, 128), nn::ReLU(),
                          nn::Linear(128, 64), nn::ReLU(), nn::Linear(64, 10));
  auto features =
      nn::Sequential(nn::Conv2d(1, 16, 3, 1, 1), nn::ReLU(), nn::MaxPool2d(2),
                     nn::Conv2d(16, 32, 3, 1, 1), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten());
  int64_t flat = 0;
  {
    NoGradGuard no_grad;
    flat = features(zeros({1, 1, height, width})).size(1);
  }
  auto net = nn::Sequential();
  for (const nn::AnyModule& layer : *features) net->push_back(layer);
  net->push_back(nn::Linear(flat, 64));
  net->push_back(nn::ReLU());
  net->push_back(nn::Linear(64, 10));
  return net;
}

// Accuracy (fraction correct) of net on a split, in batches, without recording a graph.
double evaluate(nn::Sequential& net, const Split& split, Device device) {
  NoGradGuard no_grad;
  net->eval();
  int64_t correct = 0, n = split.labels.size(0);
  for (int64_t start = 0; start < n; start += 512) {
    int64_t len = std::min<int64_t>(512, n - start);
    Tensor logits = net(split.images.narrow(0, start, len).to(device));
    correct +=
        (logits.argmax(1) == split.labels.narrow(0, start, len).to(device)).sum().item<int64_t>();
  }
  net->train();
  return static_cast<double>(correct) / static_cast<double>(n);
}

// One progress line, redrawn in place on a terminal and printed once per epoch otherwise.
void progress(int epoch, int epochs, int64_t step, int64_t steps, double loss, double acc,
              double samples_per_s, bool final) {
  static const bool tty = isatty(fileno(stdout));
  if (!tty && !final) return;
  constexpr int kWidth = 24;
  int filled = static_cast<int>(kWidth * step / std::max<int64_t>(steps, 1));
  std::string bar(static_cast<size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::printf("%sepoch %2d/%d [%s] %3lld/%lld  loss %.4f  train acc %5.1f%%  %8.0f samples/s%s",
              tty ? "\r" : "", epoch, epochs, bar.c_str(), static_cast<long long>(step),
              static_cast<long long>(steps), loss, 100 * acc, samples_per_s, final ? "\n" : "");
  std::fflush(stdout);
}

void train(const Options& o) {
  Device device = o.device ? *o.device : try_gpu();
  // Under ember-run (--nproc): this rank's place; rank 0 alone reports.
  const int world = o.nproc > 0 ? distributed::get_world_size() : 1;
  const int rank = o.nproc > 0 ? distributed::get_rank() : 0;
  if (world > 1 && device.is_cuda() && !device.has_index())  // one GPU per rank, while they last
    device = Device(kCUDA, rank % std::max(cuda::device_count(), 1));
  std::string data_name;
  auto [train_set, test_set] = load_data(o, &data_name);
  const int64_t h = train_set.images.size(2), w = train_set.images.size(3);
  if (rank == 0) {
    section("Training a digit classifier");
    std::cout << "data:   " << data_name << ": " << train_set.labels.size(0) << " training and "
              << test_set.labels.size(0) << " test images of " << h << "x" << w << "\n";
  }
  manual_seed(o.seed);
  nn::Sequential net = make_model(o.model, h, w);
  net->to(device);
  if (rank == 0) std::cout << "device: " << device << "\nmodel:  " << *net << "\n";

  if (!o.load_path.empty()) {
    net->load_state_dict(load_safetensors(o.load_path, device));
    if (rank == 0)
      std::printf("loaded %s: test accuracy %.2f%%\n", o.load_path.c_str(),
                  100 * evaluate(net, test_set, device));
    return;
  }

  // Data-parallel: rank 0's weights on every rank, gradients averaged over the ranks in backward.
  nn::parallel::DistributedDataParallel ddp{nullptr};
  if (world > 1) ddp = nn::parallel::DistributedDataParallel(net);
  auto forward = [&](const Tensor& x) { return ddp.is_empty() ? net(x) : ddp(x); };
  optim::SGD sgd(net->parameters(), optim::SGDOptions(o.lr).momentum(0.9));
  const int64_t batch = std::max<int64_t>(o.batch_size / world, 1);  // this rank's share
  const auto loader_options = data::DataLoaderOptions(static_cast<size_t>(batch));
  const int64_t samples = (train_set.labels.size(0) + world - 1) / world;
  const int64_t steps = (samples + batch - 1) / batch;
  // As PyTorch's DataLoader(pin_memory=True) hands batches to a GPU: copied into page-locked
  // memory, from which the copy to the device runs asynchronously.
  auto to_device = [&](const Tensor& t) {
    return device.is_cuda() ? t.pin_memory().to(device, /*non_blocking=*/true) : t.to(device);
  };
  if (rank == 0) {
    std::printf("optim:  SGD(lr=%g, momentum=0.9), batch %lld, %d epochs", o.lr,
                static_cast<long long>(o.batch_size), o.epochs);
    if (world > 1)
      std::printf(", data-parallel on %d ranks (%lld samples each per step)", world,
                  static_cast<long long>(batch));
    std::printf("\n");
  }
  // Timed with events on the device's stream, as PyTorch programs time GPU work with
  // torch.cuda.Event: on a GPU they measure the device's own progress; on the CPU (one
  // always-complete stream) the same code reads the host clock.
  auto marker = [&] {
    Event e(device.type(), /*enable_timing=*/true);
    e.record(current_stream(device));
    return e;
  };
  double total_ms = 0;
  auto run_epoch = [&](int epoch, auto& loader) {
    const Event start = marker();
    double loss_sum = 0;
    int64_t seen = 0, correct = 0, step = 0;
    for (data::Example<>& batch : loader) {
      const Tensor x = to_device(batch.data), y = to_device(batch.target);
      sgd.zero_grad();
      Tensor logits = forward(x);
      Tensor loss = F::cross_entropy(logits, y);
      loss.backward();
      sgd.step();
      // Reading the loss waits for the device; once per step is cheap at this size.
      loss_sum += loss.item<double>() * static_cast<double>(y.size(0));
      {
        NoGradGuard no_grad;
        correct += (logits.argmax(1) == y).sum().item<int64_t>();
      }
      seen += y.size(0);
      ++step;
      const Event now = marker();
      now.synchronize();
      const double ms = start.elapsed_time(now);
      const bool last = step == steps;
      if (last) total_ms += ms;
      if (rank == 0)  // this rank's loss and accuracy; every rank's samples
        progress(epoch, o.epochs, step, steps, loss_sum / double(seen),
                 double(correct) / double(seen), 1000 * double(seen * world) / ms, last);
    }
  };
  if (world == 1) {
    auto loader = data::make_data_loader<data::samplers::RandomSampler>(SplitDataset(train_set),
                                                                        loader_options);
    for (int epoch = 1; epoch <= o.epochs; ++epoch) run_epoch(epoch, *loader);
  } else {
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
      // Every rank shuffles alike (seeded with the epoch) and takes its own share.
      data::samplers::DistributedRandomSampler sampler(
          static_cast<size_t>(train_set.labels.size(0)), static_cast<size_t>(world),
          static_cast<size_t>(rank));
      sampler.set_epoch(static_cast<size_t>(epoch));
      auto loader =
          data::make_data_loader(SplitDataset(train_set), std::move(sampler), loader_options);
      run_epoch(epoch, *loader);
    }
  }
  if (rank != 0) return;  // the same weights on every rank: rank 0 reports and saves them
  const double total = total_ms / 1000;
  double accuracy = evaluate(net, test_set, device);
  std::printf("test accuracy: %.2f%% on %lld images (training took %.2f s)\n", 100 * accuracy,
              static_cast<long long>(test_set.labels.size(0)), total);
  if (!o.save_path.empty()) {
    save_safetensors(
        net->state_dict(), o.save_path,
        {{"model", o.model}, {"image_size", std::to_string(h) + "x" + std::to_string(w)}});
    std::printf("saved the weights to %s (safetensors)\n", o.save_path.c_str());
  }
}

// --nproc N outside ember-run: this program again, as N ranks under ember-run (found beside
// this program, installed or in the build tree, else on PATH), with the same arguments.
[[noreturn]] void run_ranks(int argc, char** argv, int nproc) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  std::string launcher = "ember-run";
  for (const auto& candidate :
       {self.parent_path() / "ember-run", self.parent_path().parent_path() / "tools/ember-run"})
    if (std::filesystem::exists(candidate)) launcher = candidate.string();
  std::vector<std::string> args = {launcher,        "--nproc", std::to_string(nproc),
                                   "--master-port", "0",       self.string()};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  std::fflush(stdout);
  ::execvp(pointers[0], pointers.data());
  throw Error("ember-demo: --nproc could not start " + launcher + ": " + std::strerror(errno) +
              "; build the ember-run target, or put ember-run on PATH");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options options = parse(argc, argv);
    if (options.nproc > 0 && std::getenv("WORLD_SIZE") == nullptr)
      run_ranks(argc, argv, options.nproc);
    if (options.nproc > 0) distributed::init_process_group("gloo");
    if (options.nproc == 0 || distributed::get_rank() == 0) {
      print_device_table(options.ascii);
      tour();
    }
    train(options);
    if (options.nproc > 0) distributed::destroy_process_group();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\n%s\n", e.what());
    return 1;
  }
}
