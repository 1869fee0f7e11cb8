// A C++ host hands its image buffer to a gpy script without copying: the
// script blurs it in place with NumPy slicing, and the host reads the
// result from its own memory. A host function (the host's logger) is
// callable from the script; a script error comes back as data.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gpy/gpy.h"

int main() {
    const int h = 64, w = 96;
    std::vector<float> image(h * w);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) image[y * w + x] = float((x / 8 + y / 8) % 2);  // a checkerboard

    gpy::Config cfg;
    cfg.backend = "cpu";
    gpy::Interpreter gp(cfg);

    std::vector<std::string> log;
    gp.define("log", [&](const std::vector<gpy::HostValue>& args) -> gpy::HostValue {
        log.push_back(std::get<std::string>(args.at(0)));
        return std::monostate{};
    });

    gpy::ArrayRef ref;
    ref.data = image.data();
    ref.shape = {h, w};
    ref.dtype = gpy::ElementType::Float32;
    gp.set("img", ref);  // the script's img is the host's buffer
    gp.set("passes", int64_t(3));

    gpy::Result r = gp.run_string(R"(
import numpy as np
for _ in range(passes):
    # a 3x3 box blur of the interior, written back into the host's memory
    c = img.copy()
    img[1:-1, 1:-1] = (c[:-2, :-2] + c[:-2, 1:-1] + c[:-2, 2:] +
                       c[1:-1, :-2] + c[1:-1, 1:-1] + c[1:-1, 2:] +
                       c[2:, :-2] + c[2:, 1:-1] + c[2:, 2:]) / 9
log(f"blurred {img.shape} in {passes} passes, mean {float(img.mean()):.4f}")
)", "blur.gpy");
    if (r.status != gpy::Status::Ok) return 1;

    // The host's own buffer holds the blurred image: the edges of the
    // checkerboard's squares are no longer 0 or 1.
    float mid = image[8 * w + 8];  // a corner where four squares meet
    bool blurred = mid > 0.05f && mid < 0.95f;
    std::printf("%s\npixel (8, 8) = %.4f (%s)\n", log.at(0).c_str(), mid, blurred ? "blurred" : "NOT blurred");

    // Errors come back as data.
    gpy::Result bad = gp.run_string("img.reshape(7, 7)\n", "bad.gpy");
    std::printf("error: %s at %s:%d\n", bad.error.type.c_str(), bad.error.file.c_str(), bad.error.line);
    return blurred && bad.error.type == "ValueError" ? 0 : 1;
}
