// The device table that ember-smi and ember-demo print: the build (version, BLAS, CUDA), every
// visible GPU and the CPU, and why no GPU is usable when none is.
#include "device_table.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ember/cuda.h"
#include "ember/error.h"
#include "ember/threading.h"
#include "ember/version.h"

namespace {

struct Glyphs {
  const char *h, *v, *tl, *tr, *bl, *br, *lt, *rt;
};
constexpr Glyphs kBox{"─", "│", "┌", "┐", "└", "┘", "├", "┤"};
constexpr Glyphs kAscii{"-", "|", "+", "+", "+", "+", "+", "+"};

// Display width of UTF-8 text (every code point counts as one column).
size_t width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string repeat(const char* s, size_t n) {
  std::string r;
  for (size_t i = 0; i < n; ++i) r += s;
  return r;
}

// A one-column table of sections; each section is a title line and key: value rows.
class Table {
 public:
  void section(std::string title) { rows_.push_back({std::move(title), "", true, false}); }
  // Long values wrap at spaces onto continuation lines, so the table stays terminal-sized.
  void row(std::string key, const std::string& value) {
    std::vector<std::string> lines = wrap(value, kMaxValueWidth);
    for (size_t i = 0; i < lines.size(); ++i)
      rows_.push_back({i == 0 ? key : std::string(), lines[i], false, i > 0});
  }

  void print(const Glyphs& g) const {
    size_t key_w = 0, inner = 0;
    for (const Row& r : rows_)
      if (!r.title) key_w = std::max(key_w, width(r.key));
    for (const Row& r : rows_)
      inner = std::max(inner, r.title ? width(r.key) : key_w + 2 + width(r.value));
    inner += 2;  // one space of padding on each side
    std::printf("%s%s%s\n", g.tl, repeat(g.h, inner).c_str(), g.tr);
    bool first = true;
    for (const Row& r : rows_) {
      std::string text;
      if (r.title) {
        if (!first) std::printf("%s%s%s\n", g.lt, repeat(g.h, inner).c_str(), g.rt);
        text = r.key;
      } else {
        text = r.continuation ? std::string(key_w + 2, ' ') + r.value
                              : r.key + ":" + std::string(key_w - width(r.key) + 1, ' ') + r.value;
      }
      first = false;
      std::printf("%s %s%s %s\n", g.v, text.c_str(),
                  std::string(inner - 2 - width(text), ' ').c_str(), g.v);
    }
    std::printf("%s%s%s\n", g.bl, repeat(g.h, inner).c_str(), g.br);
  }

 private:
  static constexpr size_t kMaxValueWidth = 64;
  struct Row {
    std::string key, value;
    bool title;
    bool continuation = false;
  };

  static std::vector<std::string> wrap(const std::string& text, size_t max) {
    std::vector<std::string> lines;
    std::string line, word;
    auto flush_word = [&] {
      if (word.empty()) return;
      if (!line.empty() && width(line) + 1 + width(word) > max) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
      word.clear();
    };
    for (char c : text) {
      if (c == ' ') {
        flush_word();
      } else {
        word += c;
      }
    }
    flush_word();
    lines.push_back(line);
    return lines;
  }
  std::vector<Row> rows_;
};

std::string mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%zu MiB", bytes >> 20);
  return buf;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    // x86: "model name"; some ARM kernels: "Model" or "Hardware".
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0 ||
        line.rfind("Hardware", 0) == 0) {
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      size_t start = line.find_first_not_of(" \t", colon + 1);
      if (start != std::string::npos) return line.substr(start);
    }
  }
  return "unknown";
}

// The driver's figure, without making a CUDA context on the GPU (Note [Memory use without a
// context]); where NVML cannot be used, through a context after all, and said so.
std::string memory_use(int index, size_t total) {
  namespace cuda = ember::cuda;
  try {
    return mib(static_cast<size_t>(cuda::device_memory_used(index))) + " of " + mib(total) +
           " (all processes and the driver's reserve)";
  } catch (const ember::Error&) {
    const cuda::MemInfo m = cuda::mem_get_info(index);
    return mib(m.total - m.free) + " of " + mib(m.total) +
           " (this program's CUDA context included: NVML could not be used)";
  }
}

// "1,3" -> {"1", "3"}: the physical GPU behind each logical cuda:i.
std::vector<std::string> split_visible(const char* v) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = v; *p; ++p) {
    if (*p == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (*p != ' ') {
      cur += *p;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace

void print_device_table(bool ascii) {
  namespace cuda = ember::cuda;
  Table t;
  t.section(std::string("ember ") + ember::version());
  t.row("BLAS", ember::blas_name());
  t.row("CUDA", cuda::built_with_cuda() ? "compiled in" : "not compiled in");
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (cuda::built_with_cuda())
    t.row("CUDA_VISIBLE_DEVICES", visible ? std::string("'") + visible + "'" : "unset");

  const int n = cuda::device_count();
  const std::vector<std::string> physical =
      visible ? split_visible(visible) : std::vector<std::string>{};
  for (int i = 0; i < n; ++i) {
    std::string title = "GPU cuda:" + std::to_string(i);
    if (static_cast<size_t>(i) < physical.size())
      title +=
          " (physical device " + physical[static_cast<size_t>(i)] + " per CUDA_VISIBLE_DEVICES)";
    t.section(title);
    try {
      cuda::DeviceProperties p = cuda::get_device_properties(i);
      t.row("Name", p.name);
      t.row("Compute capability", std::to_string(p.major) + "." + std::to_string(p.minor));
      t.row("SMs", std::to_string(p.multi_processor_count));
      t.row("PCI bus id", p.pci_bus_id);
      t.row("Memory in use", memory_use(i, p.total_memory));
    } catch (const std::exception& e) {
      t.row("Error", e.what());
    }
  }
  if (n == 0) {
    t.section("GPUs");
    t.row("Usable GPUs", "none");
    t.row("Why", cuda::unavailable_reason());
  }

  t.section("CPU");
  t.row("Model", cpu_model());
  t.row("Hardware threads", std::to_string(std::thread::hardware_concurrency()));
  t.row("Threads ember uses", std::to_string(ember::get_num_threads()));
  t.row("Vector kernels", ember::cpu_capability());
  t.print(ascii ? kAscii : kBox);
}
