// A test's interpreter whose out/err go to strings (tests through the
// public API, include/gpy/gpy.h). ok/fails/repl check with Catch2: call them
// from the test's thread only.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "gpy/gpy.h"

namespace gpy::test {

// An interpreter whose out/err go to strings.
struct Session {
    std::string out, err;
    Interpreter interp;
    explicit Session(gpy::Config c = gpy::Config::from_environment()) : interp(with_sinks(std::move(c))) {}

    gpy::Config with_sinks(gpy::Config c) {
        c.out = [this](std::string_view s) { out.append(s); };
        c.err = [this](std::string_view s) { err.append(s); };
        return c;
    }
    gpy::Result run(std::string_view src) { return interp.run_string(src, "<test>"); }
    // Runs `src`, requires success and returns what it printed (and clears).
    std::string ok(std::string_view src) {
        out.clear();
        err.clear();
        gpy::Result r = run(src);
        INFO("stderr: " << err);
        CHECK(r.status == gpy::Status::Ok);
        CHECK(r.exit_code == 0);
        return out;
    }
    // Runs `src`, requires an uncaught exception; returns stderr.
    std::string fails(std::string_view src) {
        out.clear();
        err.clear();
        gpy::Result r = run(src);
        INFO("stdout: " << out);
        CHECK(r.status == gpy::Status::RuntimeError);
        CHECK(r.exit_code == 1);
        return err;
    }
    std::string repl(std::string_view src) {
        out.clear();
        err.clear();
        gpy::Result r = interp.run_interactive(src);
        INFO("stderr: " << err);
        CHECK(r.status == gpy::Status::Ok);
        return out;
    }
};

}  // namespace gpy::test
