// Streams and events in the language, with CuPy's names: Stream
// (use, synchronize, done, wait_event, record, `with s:`, Stream.null),
// get_current_stream(), Event (record, synchronize, done) and
// get_elapsed_time(e1, e2) in milliseconds.
//
// On the CPU backend every kernel has finished when its statement returns, so
// a stream is a no-op that is always done, and an event records the host
// clock (after computing pending arrays): scripts that time themselves with
// events run on both backends.
#include <algorithm>
#include <chrono>
#include <memory>

#include "codegen/plan.h"
#include "runtime/array_memory.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "numpy/array_state.h"
#include "numpy/array.h"
#include "numpy/cuda_errors.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

bool on_gpu() { return array_device_kind() == DeviceKind::CUDA; }

// ---- Stream ----

TypeObject* g_stream_type = nullptr;

struct StreamObj : Object {
    std::unique_ptr<cuda::Stream> stream;  // null: the legacy default stream (or the CPU backend), or external
    cuda::CUstream external = nullptr;     // ExternalStream's: a stream of the host's, not ours to destroy
    int device = -1;                       // the device `stream` belongs to (-1: any)
    std::vector<Value> saved;              // streams to restore when `with` blocks end
    Value owner;                           // Stream.from_external of one of ours: that Stream (kept alive while this is)
    StreamObj() : Object(g_stream_type) {}
    ~StreamObj() override {
        if (handle()) retire_cuda_stream(device, handle());
    }
    cuda::CUstream handle() const { return stream ? stream->handle() : external; }
};

TypeObject* g_external_stream_type = nullptr;
Value g_null_stream;  // Stream.null
// The object of the current device's current stream in the interpreter's
// state (ArrayState::current_streams).
Value& current_slot() { return bound_array_state().current_streams[std::min(array_device_index(), 63)]; }

StreamObj* self_stream(CallArgs& a, const char* method) {
    if (a.npos < 1 || !a.pos[0].is_obj() || !a.pos[0].o->type->is_subtype_of(g_stream_type))
        raise(types::TypeError, std::string("Stream.") + method + "() needs a Stream");
    return static_cast<StreamObj*>(a.pos[0].o);
}

bool bool_kw(CallArgs& a, size_t pos, const char* name) {
    const Value* v = arg(a, pos, name);
    return v && truthy(*v);
}

Value stream_construct(Interp&, CallArgs& a) {
    bool non_blocking = bool_kw(a, 0, "non_blocking");
    const Value* p = arg(a, 1, "priority");
    int priority = p && p->kind == VK::Int ? int(p->i) : 0;
    auto* s = new StreamObj();
    Value r = Value::object(s);
    if (on_gpu()) {
        cuda_call([&] {
            cuda::device(array_device_index()).make_current();
            s->stream = std::make_unique<cuda::Stream>(non_blocking, priority);
            s->device = array_device_index();
        });
    }
    return r;
}

// ExternalStream(ptr, device_id=-1): a stream another library made (CuPy's
// name), used without owning it.
Value external_stream_construct(Interp&, CallArgs& a) {
    const Value* p = arg(a, 0, "ptr");
    if (!p) raise(types::TypeError, "ExternalStream() missing required argument 'ptr' (pos 1)");
    if (!p->is_intlike()) raise(types::TypeError, std::string("an integer is required (got type ") + type_name(*p) + ")");
    const Value* d = arg(a, 1, "device_id");
    auto* s = new StreamObj();
    s->type = g_external_stream_type;
    Value r = Value::object(s);
    s->external = reinterpret_cast<cuda::CUstream>(uintptr_t(p->as_int()));
    s->device = d && d->is_intlike() && d->as_int() >= 0 ? int(d->as_int()) : (on_gpu() ? array_device_index() : -1);
    return r;
}

Value current_stream_object() { return current_slot().is_undef() ? g_null_stream : current_slot(); }

// Makes `stream` (a Stream object) current on the current device. Work
// already pending belongs to the stream that was current, so it is computed
// first.
void switch_stream(const Value& stream) {
    auto* s = static_cast<StreamObj*>(stream.o);
    if (s->device >= 0 && s->device != array_device_index())
        raise(types::RuntimeError, "the stream belongs to CUDA device " + std::to_string(s->device) +
                                       ", the current device is " + std::to_string(array_device_index()));
    if (s->handle() != current_stream()) {
        MaterializeReason why("a stream switch");
        materialize_all_pending();
    }
    set_current_stream(s->handle());
    current_slot() = stream;
}

Value stream_use(Interp&, CallArgs& a) {
    self_stream(a, "use");
    switch_stream(a.pos[0]);
    return a.pos[0];
}

Value stream_enter(Interp&, CallArgs& a) {
    StreamObj* s = self_stream(a, "__enter__");
    s->saved.push_back(current_stream_object());
    switch_stream(a.pos[0]);
    return a.pos[0];
}

Value stream_exit(Interp&, CallArgs& a) {
    StreamObj* s = self_stream(a, "__exit__");
    if (!s->saved.empty()) {
        switch_stream(s->saved.back());
        s->saved.pop_back();
    }
    return Value::boolean(false);
}

Value stream_synchronize(Interp&, CallArgs& a) {
    StreamObj* s = self_stream(a, "synchronize");
    materialize_all_pending();
    if (!on_gpu()) return Value::none();
    cuda_call([&] {
        if (s->stream) s->stream->synchronize();
        else if (s->external) GPY_CU(cuStreamSynchronize(s->external));
        else cuda::device(array_device_index()).synchronize();
    });
    return Value::none();
}

// ---- Event ----

TypeObject* g_event_type = nullptr;

struct EventObj : Object {
    std::unique_ptr<cuda::Event> event;  // GPU backend
    bool recorded = false;
    std::chrono::steady_clock::time_point host_time;  // CPU backend
    EventObj() : Object(g_event_type) {}
};

EventObj* as_event(const Value& v) {
    return v.is_obj() && v.o->type == g_event_type ? static_cast<EventObj*>(v.o) : nullptr;
}

EventObj* self_event(CallArgs& a, const char* method) {
    EventObj* e = a.npos >= 1 ? as_event(a.pos[0]) : nullptr;
    if (!e) raise(types::TypeError, std::string("Event.") + method + "() needs an Event");
    return e;
}

Value event_construct(Interp&, CallArgs& a) {
    bool block = bool_kw(a, 0, "block");
    bool disable_timing = bool_kw(a, 1, "disable_timing");
    auto* e = new EventObj();
    Value r = Value::object(e);
    if (on_gpu()) {
        cuda_call([&] {
            cuda::device(array_device_index()).make_current();
            e->event = std::make_unique<cuda::Event>(block, disable_timing);
        });
    }
    return r;
}

// Records `e` on `stream` (the current stream when null).
void record(EventObj* e, const StreamObj* stream) {
    MaterializeReason why("an event record");
    materialize_all_pending();  // what was written before the record is part of it
    e->recorded = true;
    if (!e->event) {
        e->host_time = std::chrono::steady_clock::now();
        return;
    }
    cuda_call([&] { e->event->record(stream ? stream->handle() : current_stream()); });
}

const StreamObj* stream_arg(const Value* v) {
    if (!v || v->is_none()) return nullptr;
    if (!v->is_obj() || !v->o->type->is_subtype_of(g_stream_type)) raise(types::TypeError, "stream must be a Stream");
    return static_cast<const StreamObj*>(v->o);
}

Value event_record(Interp&, CallArgs& a) {
    EventObj* e = self_event(a, "record");
    CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
    record(e, stream_arg(arg(rest, 0, "stream")));
    return Value::none();
}

Value event_synchronize(Interp&, CallArgs& a) {
    EventObj* e = self_event(a, "synchronize");
    if (e->event && e->recorded) cuda_call([&] { e->event->synchronize(); });
    return Value::none();
}

// s.record(e=None): records (a new event when none is given) on s; returns it.
Value stream_record(Interp& in, CallArgs& a) {
    StreamObj* s = self_stream(a, "record");
    CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
    const Value* v = arg(rest, 0, "event");
    Value ev = v && !v->is_none() ? *v : Value();
    if (ev.is_undef()) {
        CallArgs none{nullptr, 0, nullptr};
        ev = event_construct(in, none);
    }
    EventObj* e = as_event(ev);
    if (!e) raise(types::TypeError, "event must be an Event");
    record(e, s);
    return ev;
}

Value stream_wait_event(Interp&, CallArgs& a) {
    StreamObj* s = self_stream(a, "wait_event");
    CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
    const Value* v = arg(rest, 0, "event");
    EventObj* e = v ? as_event(*v) : nullptr;
    if (!e) raise(types::TypeError, "wait_event() needs an Event");
    if (s->handle() && e->event) {
        cuda_call([&] { GPY_CU(cuStreamWaitEvent(s->handle(), e->event->handle(), 0)); });
    } else if (!s->handle() && e->event && e->recorded) {
        // The legacy default stream waits for the event by making the host wait.
        cuda_call([&] { e->event->synchronize(); });
    }
    return Value::none();
}

Value stream_getattr(Interp&, const Value& v, const std::string& name) {
    auto* s = static_cast<StreamObj*>(v.o);
    if (name == "done") {
        if (!on_gpu()) return Value::boolean(true);
        return Value::boolean(cuda_call([&] {
            return cuda::api().cuStreamQuery(s->handle()) == cuda::CUDA_SUCCESS;
        }));
    }
    if (name == "ptr") return Value::integer(int64_t(reinterpret_cast<uintptr_t>(s->handle())));
    return Value();
}

Value event_getattr(Interp&, const Value& v, const std::string& name) {
    auto* e = static_cast<EventObj*>(v.o);
    if (name == "done") {
        if (!e->event || !e->recorded) return Value::boolean(true);
        return Value::boolean(cuda_call([&] { return e->event->done(); }));
    }
    return Value();
}

Value get_current_stream(Interp&, CallArgs&) { return current_stream_object(); }

Value get_elapsed_time(Interp&, CallArgs& a) {
    const Value* v1 = arg(a, 0, "start_event");
    const Value* v2 = arg(a, 1, "end_event");
    EventObj* e1 = v1 ? as_event(*v1) : nullptr;
    EventObj* e2 = v2 ? as_event(*v2) : nullptr;
    if (!e1 || !e2) raise(types::TypeError, "get_elapsed_time() needs two Events");
    if (!e1->recorded || !e2->recorded) raise(types::RuntimeError, "get_elapsed_time(): both events must be recorded");
    if (e1->event && e2->event)
        return Value::real(cuda_call([&] {
            e2->event->synchronize();
            return cuda::elapsed_ms(*e1->event, *e2->event);
        }));
    return Value::real(std::chrono::duration<double, std::milli>(e2->host_time - e1->host_time).count());
}

// s.__cuda_stream__(): the CUDA stream protocol, (version 0, the cudaStream_t).
Value stream_protocol(Interp&, CallArgs& a) {
    StreamObj* s = self_stream(a, "__cuda_stream__");
    return make_tuple({Value::integer(0), Value::integer(int64_t(reinterpret_cast<uintptr_t>(s->handle())))});
}

// Stream.from_external(obj): an ExternalStream of an object with
// __cuda_stream__ (another library's stream, or one of ours).
Value stream_from_external(Interp& in, CallArgs& a) {
    expect_args(a, "from_external", 1, 1);
    Value proto = get_attr(in, a.pos[0], "__cuda_stream__");
    CallArgs none{nullptr, 0, nullptr};
    Value t = in.call(proto, none);
    if (!is_kind(t, OK::Tuple) || t.as<TupleObj>()->items.size() != 2 || !t.as<TupleObj>()->items[1].is_intlike())
        raise(types::TypeError, "__cuda_stream__() must return a tuple (version, stream pointer)");
    Value ptr = t.as<TupleObj>()->items[1];
    CallArgs args{&ptr, 1, nullptr};
    Value r = external_stream_construct(in, args);
    // Retiring this stream records on the handle: its owner must outlive it.
    if (a.pos[0].is_obj() && a.pos[0].o->type->is_subtype_of(g_stream_type)) {
        auto* from = static_cast<StreamObj*>(a.pos[0].o);
        static_cast<StreamObj*>(r.o)->owner = from->owner.is_undef() ? a.pos[0] : from->owner;
        static_cast<StreamObj*>(r.o)->device = from->device;
    }
    return r;
}

void install_types() {
    if (g_stream_type) return;
    g_stream_type = new TypeObject("cupy.cuda.Stream", nullptr, OK::Other);
    g_stream_type->doc = "Stream(non_blocking=False, priority=0): a CUDA stream; `with s:` makes it current.";
    g_stream_type->construct = stream_construct;
    g_stream_type->getattr = stream_getattr;
    g_stream_type->repr = [](Interp&, const Value& v) {
        auto* s = static_cast<StreamObj*>(v.o);
        return "<Stream " + std::to_string(reinterpret_cast<uintptr_t>(s->handle())) + " (device " + std::to_string(s->device) + ")>";
    };
    def_method(g_stream_type, "use", stream_use, "use()", "Makes this stream the current one.");
    def_method(g_stream_type, "synchronize", stream_synchronize, "synchronize()", "Waits until the stream's work has finished.");
    def_method(g_stream_type, "record", stream_record, "record(event=None)", "Records an event (a new one by default) on the stream.");
    def_method(g_stream_type, "wait_event", stream_wait_event, "wait_event(event)", "Later work on the stream waits for the event.");
    def_method(g_stream_type, "__enter__", stream_enter, "__enter__()", "Makes this stream current for the block.");
    def_method(g_stream_type, "__exit__", stream_exit, "__exit__(*exc)", "Restores the previous stream.");
    def_method(g_stream_type, "__cuda_stream__", stream_protocol, "__cuda_stream__()", "(0, the cudaStream_t): the CUDA stream protocol.");
    g_stream_type->dict["from_external"] = make_builtin("from_external", stream_from_external, "from_external(stream)",
                                                        "An ExternalStream of an object with __cuda_stream__.");
    g_null_stream = Value::object(new StreamObj());
    g_stream_type->dict["null"] = g_null_stream;  // Stream.null: the legacy default stream

    g_external_stream_type = new TypeObject("cupy.cuda.ExternalStream", g_stream_type, OK::Other);
    g_external_stream_type->doc = "ExternalStream(ptr, device_id=-1): a CUDA stream made elsewhere (a cudaStream_t), used without owning it.";
    g_external_stream_type->construct = external_stream_construct;
    g_external_stream_type->getattr = stream_getattr;
    g_external_stream_type->repr = g_stream_type->repr;

    g_event_type = new TypeObject("cupy.cuda.Event", nullptr, OK::Other);
    g_event_type->doc = "Event(block=False, disable_timing=False): a CUDA event.";
    g_event_type->construct = event_construct;
    g_event_type->getattr = event_getattr;
    def_method(g_event_type, "record", event_record, "record(stream=None)", "Records the event on a stream (the current one by default).");
    def_method(g_event_type, "synchronize", event_synchronize, "synchronize()", "Waits until the event has completed.");
}

const FunctionSpec kFunctions[] = {
    {"get_current_stream", get_current_stream, "get_current_stream()", "The current stream."},
    {"get_elapsed_time", get_elapsed_time, "get_elapsed_time(start_event, end_event)", "Milliseconds between two recorded events."},
};

}  // namespace

StreamScope::StreamScope(const Value& stream) {
    if (stream.is_none()) return;
    if (!stream.is_obj() || !stream.o->type->is_subtype_of(g_stream_type))
        raise(types::TypeError, std::string("stream must be a cupy.cuda.Stream or None, not ") + type_name(stream));
    Value previous = current_stream_object();
    switch_stream(stream);
    saved_ = previous;
}

StreamScope::~StreamScope() {
    if (saved_.is_undef()) return;
    try {
        switch_stream(saved_);
    } catch (...) {
        // Computing pending work failed while unwinding: make the stream current
        // anyway; the failure surfaces where that work is next needed.
        set_current_stream(static_cast<StreamObj*>(saved_.o)->handle());
        current_slot() = saved_;
    }
}

void add_stream_functions(Interp&, ModuleObj* m) {
    install_types();
    ModuleObj* cuda = (*m->get("cuda")).as<ModuleObj>();
    // cupy.cuda.stream: the module CuPy defines these in (examples name it).
    auto* stream_module = new ModuleObj("numpy.cuda.stream");
    stream_module->doc = "CuPy's cupy.cuda.stream: Stream, ExternalStream, Event, get_current_stream.";
    cuda->set("stream", Value::object(stream_module));
    for (ModuleObj* target : {m, cuda, stream_module}) {
        add_functions(target, kFunctions);
        target->set("Stream", Value::object(g_stream_type));
        target->set("ExternalStream", Value::object(g_external_stream_type));
        target->set("Event", Value::object(g_event_type));
    }
}

}  // namespace gpy
