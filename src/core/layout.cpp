// The names of Layout and MemoryFormat, as LibTorch prints them.
#include <ostream>

#include "ember/layout.h"
#include "ember/memory_format.h"

namespace ember {

std::ostream& operator<<(std::ostream& os, Layout layout) {
  switch (layout) {
    case Layout::Strided: return os << "Strided";
    case Layout::Sparse: return os << "Sparse";
    case Layout::SparseCsr: return os << "SparseCsr";
    case Layout::Mkldnn: return os << "Mkldnn";
    case Layout::SparseCsc: return os << "SparseCsc";
    case Layout::SparseBsr: return os << "SparseBsr";
    case Layout::SparseBsc: return os << "SparseBsc";
  }
  return os;
}

std::ostream& operator<<(std::ostream& os, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return os << "Contiguous";
    case MemoryFormat::Preserve: return os << "Preserve";
    case MemoryFormat::ChannelsLast: return os << "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return os << "ChannelsLast3d";
  }
  return os;
}

}  // namespace ember
