// bench_shim.cpp — the C shim over Google Benchmark 1.7.1 (see skb_bench.h).
// Flags follow TOOLCHAIN.md: --benchmark_min_time takes a bare number.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
#include <benchmark/benchmark.h>
#include "skb_bench.h"
#include "skb_method.h"

namespace {

// Google Benchmark's console reporter, sent to stderr or nowhere
class quiet_reporter : public benchmark::ConsoleReporter {
public:
    explicit quiet_reporter(std::ostream *os) : benchmark::ConsoleReporter(OO_None) { SetOutputStream(os); SetErrorStream(os); }
};

}  // namespace

extern "C" int skb_bench_add(const char *name, skb_bench_fn fn, void *arg, long batch, double items)
{
    if (!name || !fn || batch < 1)
        return SKB_EINVAL;
    benchmark::RegisterBenchmark(name, [fn, arg, batch, items](benchmark::State &st) {
        while (st.KeepRunningBatch(batch))
            fn(arg, batch);
        st.SetItemsProcessed((int64_t)((double)st.iterations() * items));
    })->Unit(benchmark::kMillisecond);
    return 0;
}

extern "C" int skb_bench_run(const struct skb_bench_opts *o, char *msg, size_t msglen)
{
    std::vector<std::string> args;
    char buf[64];
    args.push_back("skinbench");
    std::snprintf(buf, sizeof buf, "--benchmark_min_time=%g", o->min_time);
    args.push_back(buf);
    std::snprintf(buf, sizeof buf, "--benchmark_repetitions=%d", o->repetitions);
    args.push_back(buf);
    args.push_back(o->random_interleaving ? "--benchmark_enable_random_interleaving=true"
                                          : "--benchmark_enable_random_interleaving=false");
    if (o->out_json) {
        // Google Benchmark calls exit(1) when it cannot open this file: find
        // out here and return an error the caller can report
        std::FILE *probe = std::fopen(o->out_json, "a");
        if (!probe) {
            std::snprintf(msg, msglen, "%s: cannot open for writing: %s", o->out_json, std::strerror(errno));
            return SKB_EIO;
        }
        std::fclose(probe);
        args.push_back(std::string("--benchmark_out=") + o->out_json);
        args.push_back("--benchmark_out_format=json");
    }
    std::string ctx;   // one flag: "k1=v1,k2=v2"
    for (int i = 0; i < 16 && o->context[i]; i++)
        ctx += (ctx.empty() ? "" : ",") + std::string(o->context[i]);
    // the injection marker also in Google Benchmark's own context block
    const char *inj = std::getenv("SKB_INJECT_SLOWDOWN");
    if (inj && *inj) {
        std::string v(inj);
        for (auto &ch : v)
            if (ch == ',' || ch == '=')
                ch = '_';
        ctx += (ctx.empty() ? "" : ",") + std::string("injected_slowdown=") + v;
    }
    if (!ctx.empty())
        args.push_back("--benchmark_context=" + ctx);
    std::vector<char *> argv;
    for (auto &a : args)
        argv.push_back(&a[0]);
    argv.push_back(nullptr);
    int argc = (int)args.size();
    benchmark::Initialize(&argc, argv.data());
    if (argc != 1) {
        std::snprintf(msg, msglen, "Google Benchmark rejected option '%s'", argv[1]);
        benchmark::ClearRegisteredBenchmarks();
        return SKB_EINVAL;
    }
    std::ostringstream sink;
    quiet_reporter rep(o->verbose ? static_cast<std::ostream *>(&std::cerr) : &sink);
    size_t n = benchmark::RunSpecifiedBenchmarks(&rep);
    benchmark::ClearRegisteredBenchmarks();
    if (n == 0) {
        std::snprintf(msg, msglen, "Google Benchmark ran no benchmark");
        return SKB_EINVAL;
    }
    return 0;
}
