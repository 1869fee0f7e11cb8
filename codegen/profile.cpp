#include "codegen/profile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

namespace gpy::profile {

namespace {

// Bytes a kernel moves: every distinct input view it reads (Input leaves of
// the graph, up to computed nodes) and every output it writes.
double bytes_moved(const KernelPlan& plan) {
    using namespace dag;
    double bytes = 0;
    std::set<const Node*> seen;
    std::set<std::tuple<const Buffer*, int64_t, std::vector<int64_t>>> views;
    std::vector<const Node*> stack{plan.root.get()};
    for (const NodeP& r : plan.extra_roots) stack.push_back(r.get());
    while (!stack.empty()) {
        const Node* n = stack.back();
        stack.pop_back();
        if (n->result) n = n->result.get();
        if (!seen.insert(n).second) continue;
        if (n->op == Op::Input) {
            if (views.insert({n->buffer.get(), n->offset, n->strides}).second) bytes += double(n->size()) * itemsize(n->dtype);
            continue;
        }
        for (const NodeP& c : n->in) stack.push_back(c.get());
    }
    bytes += double(plan.root->size()) * itemsize(plan.root->dtype);
    for (const NodeP& r : plan.extra_roots) bytes += double(r->size()) * itemsize(r->dtype);
    return bytes;
}

}  // namespace

void Table::timed(const KernelPlan& plan, const std::function<void()>& launch) {
    if (sync_) sync_();  // earlier work is not this kernel's
    auto t0 = std::chrono::steady_clock::now();
    launch();
    if (sync_) sync_();
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double bytes = bytes_moved(plan);
    std::lock_guard<std::mutex> lock(mu_);
    Row& row = rows_[plan.source->name];
    row.summary = plan.source->summary;
    if (row.launches++ == 0) {
        row.first = dt;
        row.first_bytes = bytes;
    } else {
        row.seconds += dt;
        row.bytes += bytes;
    }
}

std::string Table::report() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (rows_.empty()) return "";
    std::vector<std::pair<std::string, Row>> rows(rows_.begin(), rows_.end());
    std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.second.timed_seconds() > b.second.timed_seconds(); });
    uint64_t launches = 0;
    double total = 0;
    for (auto& [name, r] : rows) {
        launches += r.launches;
        total += r.first + r.seconds;
    }
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "gpy: profile: %zu kernels, %llu launches, %.3f ms in kernels\n", rows.size(),
                  (unsigned long long)launches, total * 1e3);
    out += line;
    out += "  (first: the first launch, with its compile or cache load; the other columns: the later launches)\n";
    out += "  launches   first ms   total ms    mean us    MB moved     GB/s  kernel\n";
    for (auto& [name, r] : rows) {
        std::string label = name + ": " + r.summary;
        if (label.size() > 100) label = label.substr(0, 97) + "...";
        double t = r.timed_seconds(), b = r.timed_bytes();
        std::snprintf(line, sizeof line, "  %8llu %10.3f %10.3f %10.2f %11.2f %8.1f  %s\n", (unsigned long long)r.launches,
                      r.first * 1e3, t * 1e3, t * 1e6 / double(r.timed_launches()), b / 1e6, t > 0 ? b / t / 1e9 : 0.0,
                      label.c_str());
        out += line;
    }
    return out;
}

}  // namespace gpy::profile
