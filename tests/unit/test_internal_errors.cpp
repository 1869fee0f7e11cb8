// A C++ exception from inside the library reaches the program as a Python
// exception it can catch (lang/ops.cpp python_error_from): std::bad_alloc and
// std::length_error as MemoryError, anything else as SystemError saying
// "please report"; and the interpreter that raised it keeps working.
#include <catch2/catch.hpp>

#include <new>
#include <stdexcept>

#include "gpy/gpy.h"
#include "lang/interp.h"

namespace {

std::string type_of(const gpy::GpyError& e) { return e.obj()->type->name; }

}  // namespace

TEST_CASE("internal errors: C++ exceptions map to catchable Python exceptions") {
    gpy::types::init();
    gpy::GpyError m = gpy::python_error_from(std::bad_alloc());
    CHECK(type_of(m) == "MemoryError");
    CHECK(m.obj()->message() == "out of host memory");
    gpy::GpyError l = gpy::python_error_from(std::length_error("cannot create std::vector larger than max_size()"));
    CHECK(type_of(l) == "MemoryError");
    gpy::GpyError s = gpy::python_error_from(std::runtime_error("unexpected state"));
    CHECK(type_of(s) == "SystemError");
    CHECK(s.obj()->message() == "internal error (please report): unexpected state");
}

TEST_CASE("internal errors: SystemError is in the hierarchy a program catches") {
    std::string out;
    gpy::Config c;
    c.out = [&](std::string_view v) { out.append(v); };
    gpy::Interpreter in(c);
    auto r = in.run_string("try:\n    raise SystemError('x')\nexcept Exception as e:\n    print('caught', type(e).__name__, e)\n", "<t>");
    CHECK(r.status == gpy::Status::Ok);
    CHECK(out == "caught SystemError x\n");
}
