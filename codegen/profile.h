// --profile: a per-kernel table of one interpreter (PlanContext::profile),
// printed when the interpreter ends (stderr): launches, total and mean time,
// bytes moved (inputs read + outputs written, each view once) and achieved
// GB/s. While profiling, the planner waits for each kernel to finish (the
// table's device sync) so a kernel's time is its own.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "codegen/kernel.h"

namespace gpy::profile {

class Table {
public:
    // `sync` waits for the device's queued work (a no-op on the CPU).
    explicit Table(std::function<void()> sync) : sync_(std::move(sync)) {}
    // Runs `launch` (one kernel) timed, and records it under the plan's kernel.
    void timed(const KernelPlan& plan, const std::function<void()>& launch);
    // The table, most expensive kernel first ("" when nothing ran).
    std::string report() const;

    // The first launch of a kernel includes its compile or cache load: it is
    // reported apart, and the other columns cover the later launches (all
    // launches when there is only one).
    struct Row {
        std::string summary;
        uint64_t launches = 0;
        double first = 0;               // seconds of the first launch
        double seconds = 0, bytes = 0;  // of the later launches
        double first_bytes = 0;
        double timed_seconds() const { return launches > 1 ? seconds : first; }
        double timed_bytes() const { return launches > 1 ? bytes : first_bytes; }
        uint64_t timed_launches() const { return launches > 1 ? launches - 1 : 1; }
    };

private:
    std::function<void()> sync_;
    mutable std::mutex mu_;
    std::map<std::string, Row> rows_;  // by kernel name
};

}  // namespace gpy::profile
