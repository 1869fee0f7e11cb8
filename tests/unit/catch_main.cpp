// The one main() of gpy_unit_tests (Catch2 v2). Every other test file in
// tests/unit/ and tests/repl/ only includes <catch2/catch.hpp>.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

// Unit tests see compiled kernels only, whatever the kernel cache holds: a
// GPU that has not compiled a kernel yet would otherwise run its first calls
// on tier 0 and stand-ins (other kernel counts and plans). Tests of those
// choose their mode themselves (on their context); GPY_TIER0 in the
// environment overrides. Set before any context reads the process default.
int main(int argc, char* argv[]) {
    setenv("GPY_TIER0", "0", /*overwrite=*/0);
    return Catch::Session().run(argc, argv);
}
