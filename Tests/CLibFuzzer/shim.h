// libFuzzer's entry for a program with its own main (llvm.org/docs/LibFuzzer.html, "Using
// libFuzzer as a library"). No library to link: `swiftc -sanitize=fuzzer` links libFuzzer.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
