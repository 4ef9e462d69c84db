// Linked into every harness: an allocation too large for the machine must reach ember's own
// check (OutOfMemoryError, which the harnesses accept) instead of ASan aborting the process
// ("requested allocation size exceeds maximum supported size"), as malloc returns null without
// ASan. one_hot with a huge num_classes is such an input.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }
