#include "conv/registry.hpp"
#include "conv/solvers.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"

#include <cctype>
#include <sstream>
#include <utility>

namespace miopen {
namespace {

// MIOpen's per-solver variables (MIOPEN_DECLARE_ENV_VAR_BOOL in MIOpen's src/solver/conv/*.cpp)
// for the solvers we share with it. MIOpen's fft solver has only the algorithm's switch, which
// is therefore its own; MIOpen's GEMM solvers have none, so theirs are derived (SwitchNameOf).
constexpr std::pair<std::string_view, const char*> kMIOpenSwitches[] = {
    {"ConvDirectNaiveConvFwd", "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_FWD"},
    {"ConvDirectNaiveConvBwd", "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_BWD"},
    {"ConvDirectNaiveConvWrw", "MIOPEN_DEBUG_CONV_DIRECT_NAIVE_CONV_WRW"},
    {"ConvMPBidirectWinograd<2-3>", "MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_F2X3"},
    {"ConvMPBidirectWinograd<4-3>", "MIOPEN_DEBUG_AMD_MP_BD_WINOGRAD_F4X3"},
    {"ConvWinograd3x3MultipassWrW<5-3>", "MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_F5X3"},
    {"ConvWinograd3x3MultipassWrW<5-4>", "MIOPEN_DEBUG_AMD_WINOGRAD_MPASS_F5X4"},
    {"ConvAsm3x3U", "MIOPEN_DEBUG_CONV_DIRECT_ASM_3X3U"},
    {"ConvAsm1x1U", "MIOPEN_DEBUG_CONV_DIRECT_ASM_1X1U"},
    {"fft", "MIOPEN_DEBUG_CONV_FFT"},
    {"ConvHipImplicitGemmFwdXdlops", "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS"},
    {"ConvHipImplicitGemmGroupFwdXdlops", "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS"},
    {"ConvHipImplicitGemm3DGroupFwdXdlops", "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_FWD_XDLOPS"},
    {"ConvHipImplicitGemmBwdXdlops", "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS"},
    {"ConvHipImplicitGemmGroupBwdXdlops", "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM_HIP_GROUP_BWD_XDLOPS"},
    {"ConvHipImplicitGemm3DGroupBwdXdlops", "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_BWD_XDLOPS"},
    {"ConvHipImplicitGemmGroupWrwXdlops", "MIOPEN_DEBUG_GROUP_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS"},
    {"ConvHipImplicitGemm3DGroupWrwXdlops", "MIOPEN_DEBUG_3D_CONV_IMPLICIT_GEMM_HIP_WRW_XDLOPS"},
};

// MIOpen's porting guide switches the Winograd solvers off with this (they were its precompiled
// assembly binaries).
constexpr const char* kPrecompiledBinaries = "MIOPEN_DEBUG_AMD_ROCM_PRECOMPILED_BINARIES";

std::string Off(const char* var) { return std::string(var) + "=" + env::Value(var).value_or(""); }

} // namespace

const char* AlgoName(ConvAlgo algo)
{
    switch(algo)
    {
    case ConvAlgo::Gemm: return "GEMM";
    case ConvAlgo::Direct: return "Direct";
    case ConvAlgo::Fft: return "FFT";
    case ConvAlgo::Winograd: return "Winograd";
    case ConvAlgo::ImplicitGemm: return "ImplicitGEMM";
    }
    return "unknown";
}

const char* AlgoToggle(ConvAlgo algo)
{
    switch(algo)
    {
    case ConvAlgo::Gemm: return "MIOPEN_DEBUG_CONV_GEMM";
    case ConvAlgo::Direct: return "MIOPEN_DEBUG_CONV_DIRECT";
    case ConvAlgo::Fft: return "MIOPEN_DEBUG_CONV_FFT";
    case ConvAlgo::Winograd: return "MIOPEN_DEBUG_CONV_WINOGRAD";
    case ConvAlgo::ImplicitGemm: return "MIOPEN_DEBUG_CONV_IMPLICIT_GEMM";
    }
    return "";
}

const std::vector<const ConvSolver*>& ConvSolvers()
{
    // Priority order: where estimates tie, earlier solvers are preferred. Ids are stable.
    static const std::vector<const ConvSolver*> all = {
        &solvers::ConvCpuDirectBlockedFwd(),
        &solvers::ConvCpuDirectBlockedBwd(),
        &solvers::ConvCpuDirectBlockedWrw(),
        &solvers::ConvCpuImplicitGemmFwd(),
        &solvers::ConvCpuImplicitGemmBwd(),
        &solvers::ConvCpuImplicitGemmWrw(),
        &solvers::ConvMPBidirectWinograd<4, 3>(),
        &solvers::ConvMPBidirectWinograd<2, 3>(),
        &solvers::ConvCpuWinogradWrw<4, 3>(),
        &solvers::ConvCpuWinogradWrw<2, 3>(),
        &solvers::ConvMPBidirectWinograd<4, 5>(),
        &solvers::ConvWinograd3x3MultipassWrW<5, 4>(),
        &solvers::ConvWinograd3x3MultipassWrW<5, 3>(),
        &solvers::Fft(),
        &solvers::GemmFwd1x1_0_1(),
        &solvers::GemmFwd1x1_0_2(),
        &solvers::ConvGpuGemmFwd1x1Split(),
        &solvers::GemmFwdRest(),
        &solvers::GemmBwd1x1_stride1(),
        &solvers::GemmBwd1x1_stride2(),
        &solvers::GemmBwdRest(),
        &solvers::GemmWrw1x1_stride1(),
        &solvers::GemmWrwUniversal(),
        &solvers::ConvGpuDepthwiseFwd(),
        &solvers::ConvGpuDepthwiseBwd(),
        &solvers::ConvGpuDepthwiseWrw(),
        &solvers::ConvGpuGroupedFwd(),
        &solvers::ConvGpuGroupedBwd(),
        &solvers::ConvGpuGroupedWrw(),
        &solvers::ConvGpuImplicitGemmFwd(0),
        &solvers::ConvGpuImplicitGemmFwd(1),
        &solvers::ConvGpuImplicitGemmFwd(2),
        &solvers::ConvGpuImplicitGemmFwd(3),
        &solvers::ConvGpuImplicitGemmFwd(4),
        &solvers::ConvGpuImplicitGemmFwd(5),
        &solvers::ConvGpuImplicitGemmBwd(0),
        &solvers::ConvGpuImplicitGemmBwd(1),
        &solvers::ConvGpuImplicitGemmBwd(2),
        &solvers::ConvGpuImplicitGemmBwd(3),
        &solvers::ConvGpuImplicitGemmBwd(4),
        &solvers::ConvGpuImplicitGemmBwd(5),
        &solvers::ConvGpuDirectBwdSmallC(),
        &solvers::ConvGpuImplicitGemmWrw(0),
        &solvers::ConvGpuImplicitGemmWrw(1),
        &solvers::ConvGpuImplicitGemmWrw(2),
        &solvers::ConvGpuImplicitGemmWrw(3),
        &solvers::ConvGpuImplicitGemmWrw(4),
        &solvers::ConvGpuImplicitGemmWrw(5),
        &solvers::ConvAsm3x3U(),
        &solvers::ConvAsm1x1U(),
        &solvers::ConvHipImplicitGemmFwdXdlops(),
        &solvers::ConvHipImplicitGemmGroupFwdXdlops(),
        &solvers::ConvHipImplicitGemm3DGroupFwdXdlops(),
        &solvers::ConvHipImplicitGemmBwdXdlops(),
        &solvers::ConvHipImplicitGemmGroupBwdXdlops(),
        &solvers::ConvHipImplicitGemm3DGroupBwdXdlops(),
        &solvers::ConvHipImplicitGemmGroupWrwXdlops(),
        &solvers::ConvHipImplicitGemm3DGroupWrwXdlops(),
        &solvers::ConvDirectNaiveFwd(),
        &solvers::ConvDirectNaiveBwdData(),
        &solvers::ConvDirectNaiveBwdWeights(),
    };
    // Ids and names key the find-db, the perf-db and every by-id call: two solvers sharing one
    // (a merge of two branches that picked the same free id) would silently shadow each other.
    static const bool unique = [] {
        for(size_t i = 0; i < all.size(); ++i)
            for(size_t j = 0; j < i; ++j)
                if(all[i]->Id() == all[j]->Id() || all[i]->Name() == all[j]->Name() ||
                   SolverSwitch(*all[i]) == SolverSwitch(*all[j]))
                    Throw(miopenStatusInternalError, "solvers ", all[j]->Name(), " and ",
                          all[i]->Name(), " share an id, a name or a switch (", all[i]->Id(), ")");
        return true;
    }();
    (void)unique;
    return all;
}

std::string SwitchNameOf(std::string_view name)
{
    if(name.substr(0, 4) == "Conv")
        name.remove_prefix(4);
    std::string out = "MIOPEN_DEBUG_CONV_";
    bool gap = false;      // a run of other characters is pending
    char prev = 0;
    for(const char ch : name)
    {
        const auto c = static_cast<unsigned char>(ch);
        if(!std::isalnum(c))
        {
            gap = true;
            continue;
        }
        const auto p = static_cast<unsigned char>(prev);
        const bool boundary = std::isupper(c) && (std::islower(p) || std::isdigit(p));
        if((gap || boundary) && out.back() != '_')
            out += '_';
        out += static_cast<char>(std::toupper(c));
        gap  = false;
        prev = ch;
    }
    return out;
}

std::string SolverSwitch(const ConvSolver& solver)
{
    for(const auto& [name, var] : kMIOpenSwitches)
        if(name == solver.Name())
            return var;
    return SwitchNameOf(solver.Name());
}

const ConvSolver* FindSolverById(uint64_t id)
{
    for(const ConvSolver* s : ConvSolvers())
        if(s->Id() == id)
            return s;
    return nullptr;
}

const ConvSolver* FindSolverByName(std::string_view name)
{
    for(const ConvSolver* s : ConvSolvers())
        if(s->Name() == name)
            return s;
    return nullptr;
}

std::optional<std::string> DisabledBy(const ConvSolver& solver)
{
    const char* toggle = AlgoToggle(solver.Algorithm());
    if(!env::IsEnabled(toggle))
        return Off(toggle);
    if(solver.Algorithm() == ConvAlgo::Winograd && !env::IsEnabled(kPrecompiledBinaries))
        return Off(kPrecompiledBinaries);
    if(const char* family = solver.FamilySwitch(); family != nullptr && !env::IsEnabled(family))
        return Off(family);
    const std::string own = SolverSwitch(solver);
    if(!env::IsEnabled(own.c_str()))
        return Off(own.c_str());
    if(const auto only = env::Value("MIOPEN_DEBUG_FIND_ONLY_SOLVER"))
    {
        std::istringstream list(*only);
        std::string item;
        bool known = false;
        bool listed = false;
        while(std::getline(list, item, ';'))
        {
            if(item.empty())
                continue;
            const bool numeric = item.find_first_not_of("0123456789") == std::string::npos;
            const ConvSolver* named = numeric ? FindSolverById(std::stoull(item)) : FindSolverByName(item);
            if(named == nullptr)
                ThrowBadParm("MIOPEN_DEBUG_FIND_ONLY_SOLVER='", *only, "': '", item,
                             "' is not a solver name or id");
            known = true;
            listed = listed || named == &solver;
        }
        if(known && !listed)
            return "MIOPEN_DEBUG_FIND_ONLY_SOLVER=" + *only;
    }
    return std::nullopt;
}

Applicability ApplicableTo(const ConvContext& ctx, const ConvProblem& p, const ConvSolver& solver)
{
    if(!solver.SupportsType(p.type))
        return NotApplicable(Concat("does not compute in ", DataTypeName(p.type)));
    return solver.IsApplicable(ctx, p);
}

SolverStatus SurveySolver(const ConvContext& ctx, const ConvProblem& p, const ConvSolver& solver,
                          size_t workspace_limit)
{
    const ConvSolver* s = &solver;
    SolverStatus st{s, false, false, "", 0};
    const Applicability a = ApplicableTo(ctx, p, *s);
    if(!a.ok)
    {
        st.why_not      = "not applicable: " + a.reason;
        st.other_domain = a.other_domain;
    }
    else if(const auto toggle = DisabledBy(*s))
        st.why_not = "disabled by " + *toggle;
    else if(p.deterministic && !s->IsDeterministic())
        st.why_not = "not deterministic (MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC or "
                     "MIOPEN_DEBUG_CONVOLUTION_DETERMINISTIC is 1)";
    else
    {
        st.workspace = s->WorkspaceSize(ctx, p);
        if(st.workspace > workspace_limit)
            st.why_not = Concat("needs ", st.workspace, " bytes of workspace; ", workspace_limit,
                                " given");
        else
            st.usable = true;
    }
    return st;
}

std::vector<SolverStatus> SurveySolvers(const ConvContext& ctx, const ConvProblem& p,
                                        size_t workspace_limit)
{
    std::vector<SolverStatus> out;
    for(const ConvSolver* s : ConvSolvers())
        out.push_back(SurveySolver(ctx, p, *s, workspace_limit));
    return out;
}

std::string ExplainNoSolver(const ConvProblem& p, const std::vector<SolverStatus>& survey)
{
    std::ostringstream o;
    o << "no solver can run problem " << p.Key() << ":";
    bool first = true;
    for(const auto& st : survey)
    {
        if(st.other_domain)   // solvers for other directions or devices are noise here
            continue;
        o << (first ? " " : "; ") << st.solver->Name() << " " << st.why_not;
        first = false;
    }
    return o.str();
}

} // namespace miopen
