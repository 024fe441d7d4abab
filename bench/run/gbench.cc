// gbench.cc — the C API of run/gbench.h over Google Benchmark.
// The only C++ in stratbench: keep it a thin, checked translation layer.
#include "run/gbench.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <regex.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

struct sb_bench {
	benchmark::internal::Benchmark *b;
	sb_bench_fn fn = nullptr, setup = nullptr, teardown = nullptr;
	void *arg = nullptr;
	int nargs = 0;		// length of every argument set registered
	int stage = 0;
	std::string name;
	double min_time = 0;	// 0: --benchmark_min_time's (for sb_gbench_each)
	int64_t iterations = 0;	// 0: GB's estimate
	int repetitions = 0;	// 0: --benchmark_repetitions'
	// its settings, replayed when a stage registers it with GB again
	std::vector<std::function<void(benchmark::internal::Benchmark *)>> cfg;
};

struct sb_state {
	benchmark::State *st;
	const sb_bench *b;
	int64_t done;		// iterations handed out by keep_running_batch
	std::string label;	// State keeps its label write-only
};

namespace {

std::vector<std::unique_ptr<sb_bench>> &benches()
{
	static std::vector<std::unique_ptr<sb_bench>> v;
	return v;
}

// a C callback and its argument
template <class F> struct hook {
	F fn;
	void *arg;
};

// every run hook gets every run, in the order they were added
constexpr int max_hooks = 4;
hook<sb_run_hook> run_hooks[max_hooks];
int nhooks;
hook<sb_group_hook> group_hook;
hook<sb_start_hook> start_hook;
hook<void (*)(const char *, void *)> context_hook;
hook<void (*)(void *)> display_hook;
bool display_quiet;	// sb_gbench_display_quiet
bool any_error;
volatile std::sig_atomic_t stop_requested;
// Stages are RunSpecifiedBenchmarks calls over one pair of reporters: each reports
// the context at its first call only, finalizes only once last_stage is set.
bool last_stage = true;

// Under GB's "***WARNING*** Library was built as DEBUG" (JSON's stays GB's).
const char debug_note[] =
	"stratbench: note: Debian's libbenchmark says it was built as DEBUG: that concerns its "
	"own checks, not the timed region (docs/console.md)";

// The first failed --benchmark_out write's errno (0: none): the run stops there
// and the file never gets its final name.
int out_errno;

// --benchmark_min_time as GB 1.7.1 takes it (its flag variable is not in
// its header): the environment's BENCHMARK_MIN_TIME, then the last flag on
// the command line, else 0.5 s; read when GB is initialised.
double flag_min_time = 0.5;

void read_min_time(int argc, char *const *argv)
{
	const char *v = std::getenv("BENCHMARK_MIN_TIME");

	for (int i = 1; i < argc; i++)
		if (!std::strncmp(argv[i], "--benchmark_min_time=", 21))
			v = argv[i] + 21;
	if (v) {
		char *end;
		double x = std::strtod(v, &end);

		if (end != v && x > 0)	// cli.c has refused any other
			flag_min_time = x;
	}
}

// A trial's length (sb_gbench_trial) replaces the benchmark's for the run.
bool in_trial;
double trial_min_time;
int64_t trial_iterations;

// The error of the runs skipped after sb_gbench_stop(): never reported.
const char interrupted_msg[] = "stratbench: interrupted";

std::string strip_manual_time(const std::string &name)
{
	static const std::string suffix = "/manual_time";
	size_t pos = name.find(suffix);

	if (pos == std::string::npos)
		return name;
	return name.substr(0, pos) + name.substr(pos + suffix.size());
}

using Run = benchmark::BenchmarkReporter::Run;

// rep cleared, then r's names (into r and name, which outlive rep), repetition and
// error; an aggregate's suffix (_mean) is its own field, not in the name.
void identify(const Run &r, const std::string &name, sb_run_report &rep)
{
	rep = {};
	rep.name = name.c_str();
	rep.registered = r.run_name.function_name.c_str();
	rep.aggregate = r.run_type == Run::RT_Aggregate ? r.aggregate_name.c_str() : "";
	rep.repetition_index = r.run_type == Run::RT_Aggregate ? -1 : r.repetition_index;
	rep.error = r.error_occurred ? r.error_message.c_str() : nullptr;
}

// One run to n hooks (rep points into r and the locals).
void call_hooks(const Run &r, const hook<sb_run_hook> *hooks, int n)
{
	double mult = benchmark::GetTimeUnitMultiplier(r.time_unit);
	std::string name = strip_manual_time(r.run_name.str());
	std::vector<const char *> names;
	std::vector<double> values;
	sb_run_report rep;

	for (const auto &c : r.counters) {
		names.push_back(c.first.c_str());
		values.push_back(c.second.value);
	}
	identify(r, name, rep);
	rep.iterations = r.iterations;
	rep.real_ns = r.GetAdjustedRealTime() / mult * 1e9;
	rep.cpu_ns = r.GetAdjustedCPUTime() / mult * 1e9;
	if (r.run_type == Run::RT_Aggregate && r.aggregate_unit == benchmark::kPercentage)
		rep.real_ns = rep.cpu_ns = NAN;	// a cv: a fraction, not a time
	rep.label = r.report_label.c_str();
	rep.ncounters = (int)names.size();
	rep.counter_names = names.data();
	rep.counter_values = values.data();
	for (int i = 0; i < n; i++)
		if (hooks[i].fn)
			hooks[i].fn(&rep, hooks[i].arg);
}

// GB 1.7.1 reports a benchmark in two calls: repetitions, then (2+ succeeded) its
// aggregates.  One with a run skipped after sb_gbench_stop() is dropped whole,
// aggregates too: it did not finish, and a resumed run does it again.
std::set<std::string> dropped;

bool interrupted(const std::vector<Run> &runs)
{
	if (runs.empty())
		return false;
	for (const Run &r : runs)
		if (r.error_occurred && r.error_message == interrupted_msg)
			dropped.insert(r.run_name.str());
	return dropped.count(runs[0].run_name.str()) != 0;
}

std::vector<Run> pending;	// the benchmark being reported

// Each run to the run hooks; a benchmark's runs, once all are in, to the group hook
// with GB's JSON of them.  Called by one reporter: the file's if any (it sees every
// run, whatever --benchmark_display_aggregates_only hides), else the display's.
void forward_group(const std::vector<Run> &runs)
{
	bool has_agg = false;
	int ok = 0;

	for (const Run &r : runs) {
		any_error |= r.error_occurred;
		call_hooks(r, run_hooks, nhooks);
		has_agg |= r.run_type == Run::RT_Aggregate;
		ok += r.run_type != Run::RT_Aggregate && !r.error_occurred;
	}
	pending.insert(pending.end(), runs.begin(), runs.end());
	if (runs.empty() || (!has_agg && ok >= 2 && runs[0].repetitions > 1))
		return;		// its aggregates come next
	if (group_hook.fn) {
		std::vector<std::string> names(pending.size());
		std::vector<sb_run_report> reps(pending.size());
		std::ostringstream json;
		benchmark::JSONReporter jr;

		jr.SetOutputStream(&json);
		jr.SetErrorStream(&json);
		json << "[\n";
		jr.ReportRuns(pending);
		json << "\n]\n";
		for (size_t i = 0; i < pending.size(); i++) {
			names[i] = strip_manual_time(pending[i].run_name.str());
			identify(pending[i], names[i], reps[i]);
		}
		group_hook.fn(reps.data(), (int)reps.size(), json.str().c_str(), group_hook.arg);
	}
	pending.clear();
}

// The display reporter --benchmark_format asked for, optionally hooked.
class DisplayReporter : public benchmark::BenchmarkReporter {
public:
	DisplayReporter(benchmark::BenchmarkReporter *inner, bool hooked)
		: inner_(inner), hooked_(hooked) {}
	bool ReportContext(const Context &ctx) override
	{
		if (reported_) {
			// a later stage: a header and name column of its own,
			// the context (to the error stream) not repeated
			std::ostringstream quiet;

			if (dynamic_cast<benchmark::ConsoleReporter *>(inner_.get()))
				inner_context(ctx, quiet);
			return true;
		}
		reported_ = true;
		if (context_hook.fn) {	// the context as GB's JSON reporter writes it
			std::ostringstream json;
			benchmark::JSONReporter jr;

			jr.SetOutputStream(&json);
			jr.SetErrorStream(&json);
			jr.ReportContext(ctx);
			json << "]}\n";
			context_hook.fn(json.str().c_str(), context_hook.arg);
		}
		return display_quiet || report_context_lines(ctx);
	}
	void ReportRuns(const std::vector<Run> &runs) override
	{
		if (interrupted(runs))
			return;
		if (display_hook.fn)
			display_hook.fn(display_hook.arg);
		if (!display_quiet)
			inner_->ReportRuns(runs);
		std::fflush(stdout);
		if (hooked_)
			forward_group(runs);
	}
	void Finalize() override
	{
		if (last_stage && reported_ && !display_quiet)
			inner_->Finalize();
	}

private:
	// The inner reporter's context, its error stream's part into text.
	bool inner_context(const Context &ctx, std::ostringstream &text)
	{
		std::ostream &err = inner_->GetErrorStream();
		bool ok;

		inner_->SetErrorStream(&text);
		ok = inner_->ReportContext(ctx);
		inner_->SetErrorStream(&err);
		return ok;
	}
	// The inner reporter's context less keys that are data for the files
	// (sb_points: one JSON text of every point).
	bool report_context_lines(const Context &ctx)
	{
		std::ostringstream text;
		std::string line;
		bool ok = inner_context(ctx, text);
		std::istringstream in(text.str());

		while (std::getline(in, line)) {
			if (line.compare(0, 11, "sb_points: ") != 0)
				inner_->GetErrorStream() << line << '\n';
			// Debian builds libbenchmark without NDEBUG: GB's own
			// asserts and bookkeeping, outside the timed region
			if (line.find("Library was built as DEBUG") != std::string::npos)
				inner_->GetErrorStream() << debug_note << '\n';
		}
		return ok;
	}
	std::unique_ptr<benchmark::BenchmarkReporter> inner_;
	bool hooked_;
	bool reported_ = false;		// the context, at a first stage
};

// GB's file reporter on our stream: GB opens (truncates) --benchmark_out at each
// RunSpecifiedBenchmarks, once a stage, so it gets /dev/null and each call aims the
// reporter at the file opened once here.  The one hooked reporter (forward_group).
template <class Base> class FileReporter : public Base {
public:
	explicit FileReporter(std::ostream *out) : out_(out)
	{
		// a console file gets no colour or tables, as GB's own file reporter
		if constexpr (is_console)
			this->output_options_ = benchmark::ConsoleReporter::OO_None;
	}
	bool ReportContext(const benchmark::BenchmarkReporter::Context &ctx) override
	{
		aim();
		if (!reported_) {
			reported_ = true;
			return Base::ReportContext(ctx);
		}
		// a later stage: a console file's header as displayed; JSON: none
		if constexpr (is_console) {
			std::ostringstream quiet;

			this->SetErrorStream(&quiet);
			Base::ReportContext(ctx);
			aim();
		}
		return true;
	}
	void ReportRuns(const std::vector<Run> &runs) override
	{
		if (interrupted(runs))
			return;
		aim();
		errno = 0;
		Base::ReportRuns(runs);
		flush_check();
		forward_group(runs);
	}
	void Finalize() override
	{
		aim();
		errno = 0;
		if (last_stage && reported_)
			Base::Finalize();
		flush_check();
	}

private:
	static constexpr bool is_console = std::is_same<Base, benchmark::ConsoleReporter>::value;
	void aim()
	{
		this->SetOutputStream(out_);
		this->SetErrorStream(out_);
	}
	// the stream failed (ENOSPC, EIO, ...): recorded once, the run stopped
	void flush_check()
	{
		out_->flush();
		if (out_->good() || out_errno)
			return;
		out_errno = errno ? errno : EIO;
		stop_requested = 1;
	}
	std::ostream *out_;
	bool reported_ = false;
};

// GB's initialisation with argv: 0, or 2 on an unknown flag (said).
int init_gb(std::vector<char *> args)
{
	int n = (int)args.size();

	read_min_time(n, args.data());
	args.push_back(nullptr);
	benchmark::Initialize(&n, args.data());
	if (n > 1) {
		std::fprintf(stderr, "stratbench: unknown option '%s'\n", args[1]);
		return 2;
	}
	return 0;
}

void add_cfg(sb_bench *b, std::function<void(benchmark::internal::Benchmark *)> f)
{
	f(b->b);
	b->cfg.push_back(std::move(f));
}

// A failed run counted with its planned iterations: under interleaving earlier
// repetitions may have finished before this one fails (stop, body error), and GB
// 1.7.1's ComputeStats aborts the process if a run of the set, errors included,
// has 0 (a loop never entered).  Entering it after the error counts max_iterations.
void count_planned(benchmark::State &st)
{
#ifndef SB_TEST_UNPADDED	// tests/test_gbench_stop.c's broken fixture
	while (st.KeepRunningBatch(st.max_iterations))
		;
#else
	(void)st;
#endif
}

void run_body(benchmark::State &st, sb_bench &b)
{
	sb_state s = { &st, &b, 0, std::string() };

	// after SIGINT/SIGTERM only the benchmark in flight finishes
	static const sb_bench *in_flight;

	if (stop_requested && &b != in_flight) {
		st.SkipWithError(interrupted_msg);
		count_planned(st);
		return;
	}
	in_flight = &b;
	if (start_hook.fn)
		start_hook.fn(b.name.c_str(), start_hook.arg);
	if (b.setup)
		b.setup(&s, b.arg);
	if (!st.error_occurred())
		b.fn(&s, b.arg);
	if (b.teardown)
		b.teardown(&s, b.arg);
	// GB insists the loop ran to completion unless an error was reported.
	if (!st.error_occurred() && st.iterations() < st.max_iterations)
		st.SkipWithError("benchmark body returned before its iterations were done");
	if (st.error_occurred())
		count_planned(st);
}

// (Re)registers b with GB, settings included.
void register_gb(sb_bench *raw)
{
	raw->b = benchmark::RegisterBenchmark(raw->name.c_str(),
					      [raw](benchmark::State &st) { run_body(st, *raw); });
	for (const auto &f : raw->cfg)
		f(raw->b);
}

// Registers with GB again every benchmark of stage, or all of them.
void register_stage(int stage, bool all = false)
{
	benchmark::ClearRegisteredBenchmarks();
	for (const auto &b : benches())
		if (all || b->stage == stage)
			register_gb(b.get());
}

// Self-test bodies: the same empty work item, as native C++ and through C.
void native_loop(benchmark::State &st)
{
	uint64_t x = 0;

	for (auto _ : st)	// NOLINT(clang-analyzer-deadcode.DeadStores): GB's loop idiom
		benchmark::DoNotOptimize(++x);
}

void c_batch_loop(sb_state *s, void *arg)
{
	int64_t batch = (int64_t)(intptr_t)arg, n;
	uint64_t x = 0;

	while ((n = sb_state_keep_running_batch(s, batch)) > 0)
		for (int64_t i = 0; i < n; i++)
			benchmark::DoNotOptimize(++x);
}

} // namespace

extern "C" {

sb_bench *sb_bench_register(const char *name, sb_bench_fn fn, void *arg)
{
	auto h = std::make_unique<sb_bench>();
	sb_bench *raw = h.get();

	raw->fn = fn;
	raw->arg = arg;
	raw->name = name;
	register_gb(raw);
	benches().push_back(std::move(h));
	return raw;
}

void sb_bench_clear_all(void)
{
	benchmark::ClearRegisteredBenchmarks();
	benches().clear();
}

void sb_bench_setup(sb_bench *b, sb_bench_fn f) { b->setup = f; }
void sb_bench_teardown(sb_bench *b, sb_bench_fn f) { b->teardown = f; }
void sb_bench_args(sb_bench *b, const int64_t *v, int n)
{
	std::vector<int64_t> set(v, v + n);

	b->nargs = n;
	add_cfg(b, [set](benchmark::internal::Benchmark *x) { x->Args(set); });
}

void sb_bench_range(sb_bench *b, int64_t lo, int64_t hi)
{
	b->nargs = 1;
	add_cfg(b, [lo, hi](benchmark::internal::Benchmark *x) { x->Range(lo, hi); });
}

void sb_bench_use_manual_time(sb_bench *b)
{
	add_cfg(b, [](benchmark::internal::Benchmark *x) { x->UseManualTime(); });
}

void sb_bench_iterations(sb_bench *b, int64_t n)
{
	b->iterations = n;
	add_cfg(b, [n](benchmark::internal::Benchmark *x) { x->Iterations(n); });
}

void sb_bench_min_time(sb_bench *b, double s)
{
	b->min_time = s;
	add_cfg(b, [s](benchmark::internal::Benchmark *x) { x->MinTime(s); });
}

void sb_bench_repetitions(sb_bench *b, int n)
{
	b->repetitions = n;
	add_cfg(b, [n](benchmark::internal::Benchmark *x) { x->Repetitions(n); });
}

void sb_bench_stage(sb_bench *b, int stage) { b->stage = stage; }

int sb_state_range(sb_state *s, int i, int64_t *out)
{
	// State::range() only asserts (NDEBUG: reads past the vector); every
	// argument set has the length registration recorded (GB requires it).
	if (i < 0 || i >= s->b->nargs)
		return -1;
	*out = s->st->range(i);
	return 0;
}

bool sb_state_keep_running(sb_state *s) { return s->st->KeepRunning(); }

int64_t sb_state_keep_running_batch(sb_state *s, int64_t max_batch)
{
	benchmark::State &st = *s->st;
	// iterations() is not meaningful before the loop starts: count here.
	int64_t left = st.max_iterations - s->done;

	if (max_batch < 1)
		max_batch = 1;
	if (left < 1)
		left = 1;	// the final call must still see KeepRunningBatch fail
	if (left > max_batch)
		left = max_batch;
	if (!st.KeepRunningBatch(left))
		return 0;
	s->done += left;
	return left;
}

int64_t sb_state_iterations(const sb_state *s) { return s->st->iterations(); }
int64_t sb_state_max_iterations(const sb_state *s) { return s->st->max_iterations; }

// GB 1.7.1 (BenchmarkRunner): a fixed count when the benchmark has one, else
// its MinTime, else the flag's.
double sb_state_min_time(const sb_state *s)
{
	if (in_trial)
		return trial_iterations > 0 || s->b->iterations > 0 ? 0 : trial_min_time;
	if (s->b->iterations > 0)
		return 0;
	return s->b->min_time > 0 ? s->b->min_time : flag_min_time;
}
void sb_state_set_iteration_time(sb_state *s, double sec) { s->st->SetIterationTime(sec); }

void sb_state_counter(sb_state *s, const char *name, double v, unsigned flags)
{
	s->st->counters[name] = benchmark::Counter(v, (benchmark::Counter::Flags)flags);
}

void sb_state_set_label(sb_state *s, const char *label)
{
	s->label = label;
	s->st->SetLabel(s->label);
}

void sb_state_append_label(sb_state *s, const char *label)
{
	if (!s->label.empty())
		s->label += "; ";
	s->label += label;
	s->st->SetLabel(s->label);
}

void sb_state_skip_with_error(sb_state *s, const char *msg)
{
	if (!s->st->error_occurred())
		s->st->SkipWithError(msg);
}

bool sb_state_error_occurred(const sb_state *s) { return s->st->error_occurred(); }

void sb_context_add(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

int sb_gbench_on_run(sb_run_hook hook, void *arg)
{
	if (nhooks == max_hooks)
		return -1;
	run_hooks[nhooks++] = { hook, arg };
	return 0;
}

/* glibc takes single-threaded shortcuts (non-atomic pthread_mutex lock words, no
 * lock prefix) until a first thread is created, for good: --threads=1 alone would
 * measure them, after a 2-thread run it would not.  So threads first (DESIGN §6). */
static void *no_op(void *) { return nullptr; }

static void go_multithreaded()
{
	pthread_t t;

	if (pthread_create(&t, nullptr, no_op, nullptr) == 0)
		pthread_join(t, nullptr);
	else
		std::fprintf(stderr, "stratbench: warning: cannot create a thread; "
			     "single-thread results may use glibc's single-threaded paths\n");
}

void sb_gbench_on_group(sb_group_hook hook, void *arg) { group_hook = { hook, arg }; }
void sb_gbench_on_start(sb_start_hook hook, void *arg) { start_hook = { hook, arg }; }
void sb_gbench_on_display(void (*hook)(void *arg), void *arg) { display_hook = { hook, arg }; }

void sb_gbench_on_context(void (*hook)(const char *json, void *arg), void *arg)
{
	context_hook = { hook, arg };
}

void sb_gbench_display_quiet(bool quiet) { display_quiet = quiet; }

void sb_gbench_stop(void) { stop_requested = 1; }

void sb_gbench_serve_results(void)
{
	sb_context_set_sink(sb_context_add);
	sb_out_fail_set_stop(sb_gbench_stop);
}

}  // extern "C"

namespace {

// The last --benchmark_filter by GB 1.7.1's rules: '-' negates, "all" and "" are
// everything, else POSIX ERE (GB's std::regex extended) searched in the name, to
// which GB appends /manual_time.
struct Filter {
	Filter(int argc, char *const *argv)
	{
		for (int i = 1; i < argc; i++)
			if (!std::strncmp(argv[i], "--benchmark_filter=", 19))
				given = argv[i] + 19;
		std::string filter = given;

		negate = !filter.empty() && filter[0] == '-';
		if (negate)
			filter.erase(0, 1);
		if (filter == "all")
			filter.clear();
		rc = regcomp(&re, filter.c_str(), REG_EXTENDED | REG_NOSUB);
		all = filter.empty();
	}
	~Filter()
	{
		if (!rc)
			regfree(&re);
	}
	bool selects(const sb_bench &b) const
	{
		std::string name = b.name + "/manual_time";

		return !rc && (all || regexec(&re, name.c_str(), 0, nullptr, 0) == 0) != negate;
	}

	regex_t re;
	int rc;			// regcomp's: 0, the filter compiled
	bool all, negate;
	std::string given;	// as on the command line
};

} // namespace

extern "C" {

int sb_gbench_count(int argc, char *const *argv)
{
	long reps = 1;
	int n = sb_gbench_each(argc, argv, [](const char *, double, int64_t, int, void *) {},
			       nullptr);

	for (int i = 1; i < argc; i++)
		if (!std::strncmp(argv[i], "--benchmark_repetitions=", 24))
			reps = std::strtol(argv[i] + 24, nullptr, 10);
	return n * (int)(reps > 0 ? reps : 1);
}

int sb_gbench_each(int argc, char *const *argv, sb_each_fn fn, void *arg)
{
	Filter f(argc, argv);
	int n = 0;

	if (f.rc)
		return 0;
	for (const auto &b : benches())
		if (f.selects(*b)) {
			fn(b->name.c_str(), b->min_time, b->iterations, b->repetitions, arg);
			n++;
		}
	return n;
}

int sb_gbench_filter_check(int argc, char *const *argv, char *err, size_t errlen)
{
	Filter f(argc, argv);
	char why[256];

	if (!f.rc)
		return 0;
	regerror(f.rc, &f.re, why, sizeof(why));
	std::snprintf(err, errlen, "bad value in '--benchmark_filter=%s': not an extended "
		      "regular expression (%s)", f.given.c_str(), why);
	return -1;
}

int sb_gbench_main(int argc, char **argv)
{
	static char devnull[] = "--benchmark_out=/dev/null";
	std::vector<char *> args(argv, argv + argc);
	std::unique_ptr<benchmark::BenchmarkReporter> file;
	std::string out_format = "json", out_path;
	std::ofstream out;
	std::set<int> stages;
	size_t matched = 0;

	for (int i = 1; i < argc; i++) {
		if (!std::strncmp(argv[i], "--benchmark_out=", 16)) {
			out_path = argv[i] + 16;
			args[i] = devnull;	// see FileReporter
		}
		if (!std::strncmp(argv[i], "--benchmark_out_format=", 23))
			out_format = argv[i] + 23;
	}
	if (init_gb(args))
		return 2;
	if (!out_path.empty()) {
		out.open(out_path, std::ios::out | std::ios::trunc);
		if (!out.is_open()) {
			std::fprintf(stderr, "stratbench: cannot write '%s': %s\n", out_path.c_str(),
				     std::strerror(errno));
			return 2;
		}
		// no CSV (refused): GB's aborts when runs' counters differ, as ours do
		if (out_format == "console")
			file = std::make_unique<FileReporter<benchmark::ConsoleReporter>>(&out);
		else
			file = std::make_unique<FileReporter<benchmark::JSONReporter>>(&out);
	}
	go_multithreaded();
	DisplayReporter display(benchmark::CreateDefaultDisplayReporter(), !file);

	for (const auto &b : benches())
		stages.insert(b->stage);
	if (stages.size() <= 1) {
		matched = benchmark::RunSpecifiedBenchmarks(&display, file.get());
	} else {
		// what GB says of a stage its filter left empty (or a bad
		// filter) is said once, only when no stage matched, as GB would
		std::ostringstream said;

		display.SetErrorStream(&said);
		for (int stage : stages) {
			register_stage(stage);
			last_stage = false;	// Finalize once, below
			said.str("");
			matched += benchmark::RunSpecifiedBenchmarks(&display, file.get());
		}
		display.SetErrorStream(&std::cerr);
		last_stage = true;	// each does it only if it reported a context
		display.Finalize();
		if (file)
			file->Finalize();
		if (!matched)
			std::cerr << said.str();
		// as registered before: every benchmark, for a later count or run
		register_stage(0, true);
	}
	benchmark::Shutdown();
	if (out.is_open()) {	// complete on disk, or recorded as failed
		int fd;

		errno = 0;
		out.close();	// flushes: a failed write sets failbit
		if (out.fail() && !out_errno)
			out_errno = errno ? errno : EIO;
		fd = open(out_path.c_str(), O_RDONLY | O_CLOEXEC);
		if (!out_errno && (fd < 0 || (fsync(fd) && errno != EINVAL)))
			out_errno = errno ? errno : EIO;
		if (fd >= 0)
			close(fd);
	}
	if (matched == 0)	// GB has said so, naming the filter
		return 2;
	return any_error ? 1 : 0;
}

int sb_gbench_out_errno(void) { return out_errno; }

namespace {

// Hands a trial's runs to its hook; reports nothing anywhere else.
class TrialReporter : public benchmark::BenchmarkReporter {
public:
	TrialReporter(sb_run_hook hook, void *arg) : hook_{ hook, arg } {}
	bool ReportContext(const Context &) override { return true; }
	void ReportRuns(const std::vector<Run> &runs) override
	{
		for (const Run &r : runs) {
			error |= r.error_occurred;
			call_hooks(r, &hook_, 1);
		}
	}
	bool error = false;

private:
	hook<sb_run_hook> hook_;
};

} // namespace

int sb_gbench_trials_begin(int argc, char **argv)
{
	if (init_gb(std::vector<char *>(argv, argv + argc)))
		return 2;
	go_multithreaded();
	return 0;
}

int sb_gbench_trial(const char *name, int64_t iterations, double min_time, sb_run_hook hook,
		    void *arg)
{
	sb_bench *b = nullptr;
	TrialReporter rep(hook, arg);

	for (const auto &x : benches())
		if (x->name == name)
			b = x.get();
	if (!b)
		return -1;
	// only b, with its settings, then the trial's length over them
	benchmark::ClearRegisteredBenchmarks();
	register_gb(b);
	b->b->Repetitions(1);
	if (iterations > 0)
		b->b->Iterations(iterations);
	else
		b->b->MinTime(min_time);
	in_trial = true;
	trial_iterations = iterations;
	trial_min_time = min_time;
	benchmark::RunSpecifiedBenchmarks(&rep, std::string("all"));
	in_trial = false;
	return rep.error ? 1 : 0;
}

// No benchmark::Shutdown(): 1.7.1's leaves the custom context dangling, and a run
// after the trials would write freed memory (sb_context_add).
void sb_gbench_trials_end(void) { register_stage(0, true); }

void sb_gbench_register_selftest(void)
{
	static const int64_t batches[] = { 1, 64, 1024 };

	benchmark::RegisterBenchmark("harness/loop/native", native_loop);
	for (int64_t b : batches) {
		std::string name = "harness/loop/c_batch:" + std::to_string(b);

		sb_bench_register(name.c_str(), c_batch_loop, (void *)(intptr_t)b);
	}
}

} // extern "C"
