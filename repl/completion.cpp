#include "repl/completion.h"

#include <algorithm>
#include <set>

namespace gpy::repl {
namespace {

bool is_ident_byte(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    // Bytes >= 0x80 belong to UTF-8 encoded identifier characters.
    return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') ||
           (u >= 'A' && u <= 'Z');
}

bool all_blank(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c == ' ' || c == '\t'; });
}

}  // namespace

std::string common_prefix(const std::vector<std::string>& items) {
    if (items.empty()) return "";
    std::string prefix = items.front();
    for (const auto& s : items) {
        std::size_t n = 0;
        while (n < prefix.size() && n < s.size() && prefix[n] == s[n]) ++n;
        prefix.resize(n);
    }
    // Never stop inside a UTF-8 sequence: drop trailing lead/continuation bytes
    // of an incomplete character.
    std::size_t end = prefix.size();
    std::size_t start = end;
    while (start > 0 && (static_cast<unsigned char>(prefix[start - 1]) & 0xC0) == 0x80) --start;
    if (start > 0 && static_cast<unsigned char>(prefix[start - 1]) >= 0xC0) {
        unsigned char lead = static_cast<unsigned char>(prefix[start - 1]);
        std::size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        if (end - (start - 1) < need) prefix.resize(start - 1);
    }
    return prefix;
}

std::string format_columns(std::vector<std::string> items, int width) {
    std::sort(items.begin(), items.end());
    std::size_t longest = 0;
    for (const auto& s : items) longest = std::max(longest, s.size());
    std::size_t col_width = longest + 2;
    std::size_t cols = std::max<std::size_t>(1, static_cast<std::size_t>(std::max(width, 1)) / col_width);
    std::size_t rows = (items.size() + cols - 1) / cols;
    std::string out;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            std::size_t i = r + c * rows;
            if (i >= items.size()) break;
            out += items[i];
            bool last_in_row = (i + rows >= items.size()) || c + 1 == cols;
            if (!last_in_row) out.append(col_width - items[i].size(), ' ');
        }
        out += '\n';
    }
    return out;
}

TabAction TabCompleter::on_tab(std::string_view before) {
    TabAction action;
    if (all_blank(before)) {
        // Tab at the start of a line indents (to the next multiple of four),
        // so blocks can be typed with Tab as in Python's REPL.
        action.insert.assign(4 - before.size() % 4, ' ');
        armed_ = false;
        return action;
    }

    // The identifier being completed and the dotted expression it ends, e.g.
    // "sq" and "math.sq" for "y = math.sq".
    std::size_t w = before.size();
    while (w > 0 && is_ident_byte(before[w - 1])) --w;
    std::size_t d = w;
    while (d > 0 && (is_ident_byte(before[d - 1]) || before[d - 1] == '.')) --d;
    std::string word(before.substr(w));
    std::string dotted(before.substr(d));
    std::string base = dotted.substr(0, dotted.size() - word.size());

    // Candidates are documented as replacements for the last dotted component;
    // accept full dotted names too, in case an implementation returns those.
    std::vector<std::string> tails, shown;
    std::set<std::string> seen;
    for (const auto& cand : fn_(before)) {
        std::string tail, display;
        if (!base.empty() && cand.size() >= dotted.size() && cand.compare(0, dotted.size(), dotted) == 0) {
            tail = cand.substr(dotted.size());
            display = cand;
        } else if (cand.size() >= word.size() && cand.compare(0, word.size(), word) == 0) {
            tail = cand.substr(word.size());
            display = base + cand;
        } else {
            continue;
        }
        if (seen.insert(tail).second) {
            tails.push_back(tail);
            shown.push_back(display);
        }
    }

    if (tails.empty()) {
        action.beep = true;
        armed_ = false;
        return action;
    }
    if (tails.size() == 1) {
        action.insert = tails.front();
        if (action.insert.empty()) action.beep = true;
        armed_ = false;
        return action;
    }
    std::string prefix = common_prefix(tails);
    if (!prefix.empty()) {
        action.insert = prefix;
        armed_ = true;
        armed_at_ = std::string(before) + prefix;
        return action;
    }
    if (armed_ && armed_at_ == before) {
        action.listing = shown;  // second Tab in a row: show the choices
    } else {
        action.beep = true;
        armed_ = true;
        armed_at_ = std::string(before);
    }
    return action;
}

}  // namespace gpy::repl
