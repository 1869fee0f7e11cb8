// The one main() of gpy_unit_tests (Catch2 v2). Every other test file in
// tests/unit/ and tests/repl/ only includes <catch2/catch.hpp>.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
