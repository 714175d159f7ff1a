// What the blocked direct-convolution solvers (ConvCpuDirectBlocked{Fwd,Bwd}) share: their
// applicability, time estimate and variant table. The kernels: cpu/conv/direct_blocked.hpp.
//     ISA,UR_W,NKV
//     avx512,14,2   the default is the row with the least padded work (DefaultTile): output
//     avx512,7,4    columns rounded up to UR_W, channels to NKV vectors, weighted by the loads
//     ...           and broadcasts per FMA; then every other tile of the CPU's ISA
// The ISA is part of the row so that a perf-db record from an AVX-512 run is not taken for an
// AVX2 one (MIOPEN_CY_DEBUG_CPU_ISA): a row of another ISA is not a variant of this problem.
#pragma once

#include "conv/conv_geometry.hpp"
#include "conv/solver.hpp"
#include "core/errors.hpp"
#include "cpu/conv/direct_blocked.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace miopen::solvers::dblk {

inline constexpr std::string_view kHeader = "ISA,UR_W,NKV";
// Backward weights: UC input channels x NKV vectors of output channels; also its kernels over
// positions (cpu/conv/direct_blocked.hpp), tiles of KR output channels x CR columns: the rows
// "avx512-row,KR,CR" (any filter; AVX2 "avx2-row,KR,CR") and, for a 1x1 unpadded filter,
// "avx512-1x1,KR,CR" (DefaultWrwTile says which is the default).
inline constexpr std::string_view kWrwHeader = "ISA,UC,NKV";

inline Applicability CommonApplicability(const ConvContext& ctx, const ConvProblem& p, ConvDirection dir)
{
    if(!ctx.handle.IsCpu())
        return OtherDomain("CPU solver");
    if(p.direction != dir)
        return OtherDomain(dir == ConvDirection::Forward        ? "forward only"
                           : dir == ConvDirection::BackwardData ? "backward data only"
                                                                : "backward weights only");
    if(p.dims > 2)
        return NotApplicable("needs 1 or 2 spatial dims");
    const cpu::dblk::Isa isa = cpu::dblk::BestIsa();
    if(isa == cpu::dblk::Isa::None)
        return NotApplicable("needs AVX2+FMA or AVX-512F (none on this CPU, or MIOPEN_CY_DEBUG_CPU_ISA=none)");
    // The tile is a multiple of a vector of output channels: with few per group most lanes idle.
    const size_t out_per_group = (dir == ConvDirection::BackwardData ? p.c : p.k) / p.groups;
    if(out_per_group < 4)
        return NotApplicable("needs at least 4 output channels per group (depthwise and narrow groups waste the "
                             "channel vectors)");
    return Applicable();
}

inline cpu::dblk::Plan PlanOf(const ConvProblem& p)
{
    const ConvGeometry g(p);
    return p.IsBackwardData() ? cpu::dblk::BackwardDataPlan(g) : cpu::dblk::ForwardPlan(g);
}

inline std::string Row(cpu::dblk::Isa isa, cpu::dblk::Tile t)
{
    return std::string(cpu::dblk::IsaName(isa)) + "," + std::to_string(t.ur_w) + "," + std::to_string(t.nkv);
}

inline std::vector<std::string> Variants(const ConvProblem& p)
{
    const cpu::dblk::Isa isa = cpu::dblk::BestIsa();
    const cpu::dblk::Plan plan = PlanOf(p);
    const cpu::dblk::Tile def = cpu::dblk::DefaultTile(plan, isa);
    std::vector<std::string> out = {Row(isa, def)};
    for(const auto& t : cpu::dblk::Tiles(isa))
        if(t.ur_w != def.ur_w || t.nkv != def.nkv)
            out.push_back(Row(isa, t));
    return out;
}

inline std::vector<std::string> WrwVariants(const ConvProblem& p)
{
    const cpu::dblk::Isa isa = cpu::dblk::BestIsa();
    const cpu::dblk::WrwTile def = cpu::dblk::DefaultWrwTile(PlanOf(p), isa);
    const auto row = [isa](const cpu::dblk::WrwTile& t) {
        return t.pos != 0 ? std::string(cpu::dblk::IsaName(isa)) + (t.pos == 1 ? "-1x1," : "-row,") +
                                std::to_string(t.uc) + "," + std::to_string(t.nkv)
                          : Row(isa, {t.uc, t.nkv});
    };
    std::vector<std::string> out = {row(def)};
    std::vector<cpu::dblk::WrwTile> all = cpu::dblk::WrwTiles(isa);
    if(cpu::dblk::WrwPosApplies(PlanOf(p)))
        for(const auto& t : cpu::dblk::WrwPosTiles(isa))
            all.push_back(t);
    for(auto t : cpu::dblk::WrwPosTiles(isa))
    {
        t.pos = 2;
        all.push_back(t);
    }
    for(const auto& t : all)
        if(t.uc != def.uc || t.nkv != def.nkv || t.pos != def.pos)
            out.push_back(row(t));
    return out;
}

struct Variant
{
    cpu::dblk::Isa isa;
    cpu::dblk::Tile tile;
    int pos;   // backward weights' kernels over positions: 1, "ISA-1x1,KR,CR"; 2, "ISA-row,KR,CR"
};

/// A row of Variants() or WrwVariants() (the tile's two numbers in `tile`, whatever they mean).
inline Variant Parse(std::string_view solver, const std::string& text, const std::vector<std::string>& allowed,
                     std::string_view header = kHeader)
{
    if(std::find(allowed.begin(), allowed.end(), text) == allowed.end())
    {
        std::string list;
        for(const auto& a : allowed)
            list += (list.empty() ? "" : " ") + a;
        ThrowBadParm(solver, ": variant '", text, "' is not one of this problem's variants (", header, "): ", list);
    }
    const size_t a = text.find(','), b = text.find(',', a + 1);
    const std::string isa = text.substr(0, a);
    return {isa.rfind("avx512", 0) == 0 ? cpu::dblk::Isa::Avx512 : cpu::dblk::Isa::Avx2,
            {std::stoi(text.substr(a + 1, b - a - 1)), std::stoi(text.substr(b + 1))},
            isa.size() > 4 && isa.compare(isa.size() - 4, 4, "-1x1") == 0   ? 1
            : isa.size() > 4 && isa.compare(isa.size() - 4, 4, "-row") == 0 ? 2
                                                                              : 0};
}

/// Padded MACs (channels rounded up to the vector) at ~250 GFLOP/s with AVX-512 on 2 cores
/// (measured 300-440 on 2 Zen 5 cores), ~120 with AVX2, plus the packing traffic.
inline double EstimateMs(const ConvProblem& p)
{
    const cpu::dblk::Isa isa = cpu::dblk::BestIsa();
    const cpu::dblk::Plan plan = PlanOf(p);
    const double v = cpu::dblk::VectorWidth(isa);
    const double kpad = std::ceil(plan.kout / v) * v / plan.kout;
    const double cpad = plan.cin < v ? 1.0 : std::ceil(plan.cin / v) * v / plan.cin;
    const double rate = isa == cpu::dblk::Isa::Avx512 ? 250e9 : 120e9;
    const double bytes = 4.0 * (static_cast<double>(plan.n) * plan.groups * plan.cin * plan.ih * plan.iw * 2 +
                                static_cast<double>(plan.groups) * plan.kout * plan.cin * plan.r * plan.s * 2);
    return (2.0 * p.Macs() * kpad * cpad / rate + bytes / 8e9) * 1e3;
}

/// The three blocked direct solvers' skeleton: a solver states its name, id and direction, what
/// it needs beyond CommonApplicability, and its invoker of a parsed variant (backward weights
/// takes the WrwVariants table).
class Solver : public ConvTunableSolver
{
public:
    Solver(std::string_view name, uint64_t id, ConvDirection dir) : name_(name), id_(id), dir_(dir) {}
    std::string_view Name() const override { return name_; }   // find-db keys: never rename
    uint64_t Id() const override { return id_; }
    ConvAlgo Algorithm() const override { return ConvAlgo::Direct; }
    double EstimateMs(const ConvContext&, const ConvProblem& p) const override { return dblk::EstimateMs(p); }
    Applicability IsApplicable(const ConvContext& ctx, const ConvProblem& p) const override
    {
        const Applicability common = CommonApplicability(ctx, p, dir_);
        if(!common.ok)
            return common;
        return IsApplicableToo(p);
    }
    std::string_view VariantHeader() const override { return Wrw() ? kWrwHeader : kHeader; }
    std::vector<std::string> Variants(const ConvContext&, const ConvProblem& p) const override
    {
        return Wrw() ? WrwVariants(p) : dblk::Variants(p);
    }
    ConvInvoker MakeInvoker(const ConvContext& ctx, const ConvProblem& p, const std::string& variant) const override
    {
        return Invoker(p, Parse(Name(), variant, Variants(ctx, p), VariantHeader()));
    }

protected:
    virtual Applicability IsApplicableToo(const ConvProblem&) const { return Applicable(); }
    virtual ConvInvoker Invoker(const ConvProblem& p, const Variant& v) const = 0;

private:
    bool Wrw() const { return dir_ == ConvDirection::BackwardWeights; }
    std::string_view name_;
    uint64_t id_;
    ConvDirection dir_;
};

} // namespace miopen::solvers::dblk
