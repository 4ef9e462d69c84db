// NumPy's files: .npy (one array) and .npz (a zip archive of named .npy arrays), as np.save,
// np.load, np.savez and np.savez_compressed read and write them.
#pragma once

#include <string>

#include "ember/macros.h"
#include "ember/state_dict.h"
#include "ember/tensor.h"

namespace ember {

// Reads a .npy file (format versions 1.0, 2.0 and 3.0) into a contiguous CPU tensor: dtypes bool,
// uint8, int8/16/32/64 and float16/32/64, either byte order (big-endian data is swapped), C or
// Fortran order (a Fortran array comes back row-major), any shape including () and empty ones.
// Anything else (object arrays, structured dtypes, a malformed or truncated file) throws
// ValueError("[load_npy] <path>: <what is wrong>").
EMBER_API Tensor load_npy(const std::string& path);

// Writes `t` as np.save does, byte for byte (format 1.0, little-endian, C order): a tensor on a
// GPU or with gaps is copied to a contiguous CPU tensor first. The file appears complete or not
// at all (written to a temporary file, then renamed). bfloat16, which NumPy lacks, throws
// ValueError; so do undefined tensors.
EMBER_API void save_npy(const Tensor& t, const std::string& path);

// Reads a .npz archive (np.savez's or np.savez_compressed's): its arrays in archive order, named
// without ".npy", each read as load_npy reads a file. A record that is not "<name>.npy", a bad
// CRC, a record claiming more than its compressed bytes can hold (a zip bomb) or a malformed
// array throws ValueError("[load_npz] <path>: record '<record>': <what is wrong>").
EMBER_API StateDict load_npz(const std::string& path);

// Writes `tensors` as np.savez does (each as "<name>.npy", stored), or as np.savez_compressed
// does (deflated) when `compressed`; each tensor as save_npy writes it. Atomic as save_npy.
EMBER_API void save_npz(const StateDict& tensors, const std::string& path, bool compressed = false);

}  // namespace ember
