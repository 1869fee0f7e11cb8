// A place in the user's program as the layers below the language see it:
// the array module records the statement that built each DAG node
// (dag::Node::origin) and GPY_DEBUG's plan report prints its line. The
// language's statements implement it (lang/ast.h).
#pragma once

namespace gpy {

struct SourcePosition {
    virtual int source_line() const = 0;

protected:
    ~SourcePosition() = default;
};

}  // namespace gpy
