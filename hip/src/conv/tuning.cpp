#include "conv/tuning.hpp"
#include "conv/convolution.hpp"
#include "conv/perf_db.hpp"
#include "core/errors.hpp"
#include "core/logging.hpp"

#include <algorithm>
#include <chrono>

namespace miopen {

ConvInvoker ConvTunableSolver::MakeInvoker(const ConvContext& ctx, const ConvProblem& p) const
{
    return MakeInvoker(ctx, p, tuning::ChosenVariant(*this, ctx, p));
}

namespace tuning {

std::string ChosenVariant(const ConvTunableSolver& solver, const ConvContext& ctx, const ConvProblem& p)
{
    const std::vector<std::string> variants = solver.Variants(ctx, p);
    const std::string name(solver.Name());
    if(const auto v = perf_db::Load(FindDbName(ctx.handle), p.Key(), name))
    {
        if(std::find(variants.begin(), variants.end(), *v) != variants.end())
            return *v;
        log::Write(log::Level::Warning, "perf-db",
                   Concat(name, ": recorded variant '", *v, "' for ", p.Key(),
                          " is not one of this problem's variants; using the default '", variants.front(), "'"));
    }
    return variants.front();
}

SearchPolicy PolicyFor(bool exhaustive, int find_enforce)
{
    SearchPolicy out;
    switch(find_enforce)
    {
    case 2: out.search = exhaustive; out.redo = exhaustive; break;    // DB_UPDATE
    case 3: out.search = true; break;                                 // SEARCH
    case 4: out.search = true; out.redo = true; break;                // SEARCH_DB_UPDATE
    case 5: break;                                                    // DB_CLEAN
    default: out.search = exhaustive; break;                          // NONE
    }
    return out;
}

double TimeVariant(const ConvInvoker& run, const ConvArgs& args)
{
    run(args);   // warm-up: first-touch of per-thread buffers, caches
    double best = 1e30;
    for(int i = 0; i < 3; ++i)
    {
        const auto t0 = std::chrono::steady_clock::now();
        run(args);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, ms);
        if(ms > 50.0)
            break;
    }
    return best;
}

bool TuneForFind(const ConvContext& ctx, const ConvProblem& p, const std::vector<const ConvSolver*>& usable,
                 const ConvArgs& args, SearchPolicy policy)
{
    if(!policy.search)
        return false;
    const std::string arch = FindDbName(ctx.handle);
    const std::string key = p.Key();
    bool any = false;
    for(const ConvSolver* s : usable)
    {
        const auto* t = dynamic_cast<const ConvTunableSolver*>(s);
        if(t == nullptr)
            continue;
        const std::string name(t->Name());
        if(!policy.redo && perf_db::Load(arch, key, name))
            continue;
        const std::vector<std::string> variants = t->Variants(ctx, p);
        std::string best_variant = variants.front();
        double best = 1e30;
        for(const auto& v : variants)
        {
            const double ms = TimeVariant(t->MakeInvoker(ctx, p, v), args);
            if(log::IsEnabled(log::Level::Info))
                log::Write(log::Level::Info, "tuning", Concat(name, " ", t->VariantHeader(), "=", v, ": ", ms, " ms"));
            if(ms < best)
            {
                best = ms;
                best_variant = v;
            }
        }
        if(log::IsEnabled(log::Level::Info))
            log::Write(log::Level::Info, "tuning", Concat(name, " ", p.Key(), ": best ", best_variant));
        perf_db::Store(arch, key, name, best_variant);
        any = true;
    }
    return any;
}

} // namespace tuning
} // namespace miopen
