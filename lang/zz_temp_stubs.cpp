// TEMPORARY: weak stand-ins until builtins_str.cpp / builtins_containers.cpp land.
#include "lang/interp.h"
namespace gpy {
__attribute__((weak)) void install_str_methods() {}
__attribute__((weak)) void install_container_methods() {}
__attribute__((weak)) Value percent_format(Interp&, const std::string&, const Value&) { raise(types::NotImplementedError, "% formatting"); }
__attribute__((weak)) std::string str_format(Interp&, const std::string&, CallArgs&, size_t) { raise(types::NotImplementedError, "format"); }
}
